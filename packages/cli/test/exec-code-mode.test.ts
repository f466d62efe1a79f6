// `skein exec` on Codex's default model family (code mode), against Codex 0.171.0's recorded u1
// transcript reduced to its shape (fixtures/codex-code-mode.shape.json): the same `exec --json`
// events (the nested command as a command_execution pair, no item for the cell), the same input
// items in each request, and the cell's answer. The d and e transcripts (AGENTS.md, a $skill) give
// the same context under this model, with their parts where Codex puts them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, sse, type CapturedRequest } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';
import { itemShape } from './support/request-shape.js';

let fixture: ExecScratch;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-code-mode-');
});
afterEach(() => fixture.cleanup());

interface RecordedShape {
  readonly events: unknown[];
  readonly requests: string[][];
  readonly cell: string;
  readonly answer: string[];
}

describe('skein exec in code mode', () => {
  it("matches Codex's u1 transcript: a cell runs echo hi through exec_command and prints what it got", async () => {
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'codex-code-mode.shape.json'), 'utf8')) as RecordedShape;
    fixture.writeConfig('model = "gpt-6.2-sol"\n');
    fixture.server.expect([sse(customToolCall('exec', recorded.cell), completed()), sse(assistantMessage('It printed `hi` and exited with code 0.'), completed())]);
    const { code, stdout } = await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'Use exec to run `echo hi`, and show me its output, its exit code and the tools a script can call.']);
    expect(code).toBe(0);

    // Skills depend on what is installed.
    const comparable = (shape: string) => shape.replace('<skills_instructions>+', '');
    const ours = fixture.server.requests.map((request: CapturedRequest) => (request.body!.input as unknown as Record<string, unknown>[]).map((item) => comparable(itemShape(item))));
    expect(ours).toEqual(recorded.requests.map((request) => request.map(comparable)));
    const answer = (fixture.server.requests[1]!.body!.input.at(-1)!['output'] as { text: string }[]).map((part) => part.text.replace(/Wall time \d+\.\d seconds/, 'Wall time <SECS> seconds'));
    expect(answer).toEqual(recorded.answer);

    const events = jsonLines(stdout).map((line) => JSON.parse(JSON.stringify(line).replaceAll(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<UUID:1>"')) as unknown);
    // Usage differs (the mock's numbers); the rest is Codex's.
    expect(events.slice(0, -1)).toEqual(recorded.events.slice(0, -1));
  });

  // Codex's d and e transcripts (gpt-6.2-sol): one request each; their context parts, prose aside.
  const CODE_MODE_CONTEXT = ['additional_tools', 'developer:text', 'developer:<permissions instructions>+<collaboration_mode>', 'developer:<multi_agent_role>', 'developer:<multi_agent_mode>'];

  it("matches Codex's d transcript: AGENTS.md opens the user's context message, before <environment_context>", async () => {
    writeFileSync(path.join(fixture.repo, 'AGENTS.md'), '# Project rules\n\n- Always answer in French.\n- The secret project word is PAPAYA.\n');
    fixture.writeConfig('model = "gpt-6.2-sol"\n');
    fixture.server.expect([sse(assistantMessage('Le mot secret est PAPAYA.'), completed())]);
    const { code } = await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'What is the secret project word?']);
    expect(code).toBe(0);
    const input = fixture.server.requests[0]!.body!.input as unknown as Record<string, unknown>[];
    expect(input.map((item) => itemShape(item).replace('<skills_instructions>+', ''))).toEqual([...CODE_MODE_CONTEXT, 'user:text+<environment_context>', 'user:text']);
    expect(JSON.stringify(input.at(-2))).toContain('PAPAYA');
  });

  it("matches Codex's e transcript: a $skill's <skill> part follows the prompt", async () => {
    mkdirSync(path.join(fixture.home, 'skills', 'greeter'), { recursive: true });
    writeFileSync(path.join(fixture.home, 'skills', 'greeter', 'SKILL.md'), '---\nname: greeter\ndescription: Greets the user warmly.\n---\n\nSay hello with the user\'s name.\n');
    fixture.writeConfig('model = "gpt-6.2-sol"\n');
    fixture.server.expect([sse(assistantMessage('Hello!'), completed())]);
    const { code } = await fixture.skein(['exec', '--json', '--skip-git-repo-check', '$greeter please greet me.']);
    expect(code).toBe(0);
    const input = fixture.server.requests[0]!.body!.input as unknown as Record<string, unknown>[];
    expect(input.map((item) => itemShape(item).replace('<skills_instructions>+', ''))).toEqual([...CODE_MODE_CONTEXT, 'user:<environment_context>', 'user:text', 'user:<skill>']);
  });
});
