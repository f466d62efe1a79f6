// `skein exec` with an MCP server (test-support's fixture over stdio), against Codex 0.171.0's recorded
// x1 transcript reduced to its shape (fixtures/codex-mcp-tool-search.shape.json): the same requests
// (items by type, role and tag; tool outputs by part; search outputs by namespace and tool; tools by
// name) and the same `exec --json` events, and what a person sees without --json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, mcpFixtureServerToml, sse, toolSearchCall, type CapturedRequest } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';
import { itemShape, toolName } from './support/request-shape.js';

let fixture: ExecScratch;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-mcp-');
  fixture.writeConfig(mcpFixtureServerToml('fixture'));
});
afterEach(() => fixture.cleanup());

interface RecordedShape {
  readonly events: unknown[];
  readonly toolsPartLines: string[];
  readonly requests: { readonly input: string[]; readonly tools: string[] }[];
}

describe('skein exec with an MCP server', () => {
  it("matches Codex's x1 transcript: tool_search finds the deferred MCP tool, the call answers in Codex's form, exec --json shows mcp_tool_call", async () => {
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'codex-mcp-tool-search.shape.json'), 'utf8')) as RecordedShape;
    fixture.server.expect([
      sse(toolSearchCall({ query: 'weather for a city', limit: 2 }), completed()),
      sse(functionCall('get_weather', { city: 'Paris' }, { namespace: 'mcp__fixture' }), completed()),
      sse(assistantMessage('It is sunny in Paris, 21 C.'), completed()),
    ]);
    const { code, stdout } = await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'What is the weather in Paris? Use the weather tool.']);
    expect(code).toBe(0);

    // Skills depend on what is installed.
    const withoutSkills = (shape: string) => shape.replace('<skills_instructions>+', '');
    const ours = fixture.server.requests.map((request: CapturedRequest) => ({
      input: (request.body!.input as unknown as Record<string, unknown>[]).map((item) => withoutSkills(itemShape(item))),
      tools: (request.body!.tools as { type: string; name?: string }[]).map(toolName),
    }));
    const expected = recorded.requests.map((request) => ({ input: request.input.map(withoutSkills), tools: request.tools }));
    expect(ours).toEqual(expected);
    const developer = fixture.server.requests[0]!.body!.input.filter((item) => item.type === 'message' && item.role === 'developer')[1] as unknown as { content: { text: string }[] };
    // The server's namespace, then multi-agent v1's (the descriptions are ours).
    const toolsLines = developer.content.at(-1)!.text.split('\n').filter((line) => line.startsWith('- '));
    expect(toolsLines.map((line) => line.split(':')[0])).toEqual(recorded.toolsPartLines.map((line) => line.split(':')[0]));

    const events = jsonLines(stdout).map((line) => JSON.parse(JSON.stringify(line).replaceAll(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<UUID:1>"')) as unknown);
    // The usage differs with the mock's numbers; every other line is Codex's.
    expect(events.slice(0, -1)).toEqual(recorded.events.slice(0, -1));
    expect(events.at(-1)).toMatchObject({ type: 'turn.completed' });
  });

  it('shows people the server start and the call with its result', async () => {
    fixture.server.expect([
      sse(functionCall('get_weather', { city: 'Lima' }, { namespace: 'mcp__fixture' }), completed()),
      sse(assistantMessage('Sunny.'), completed()),
    ]);
    const { code, stderr } = await fixture.skein(['exec', '--skip-git-repo-check', 'weather']);
    expect(code).toBe(0);
    expect(stderr).toContain('mcp: fixture ready\n');
    expect(stderr).toContain('tool fixture.get_weather({"city":"Lima"})\n');
    expect(stderr).toMatch(/fixture\.get_weather\(\{"city":"Lima"\}\) succeeded in \d+ ms:\nWeather in Lima: sunny, 21 C\n/);
  });
});
