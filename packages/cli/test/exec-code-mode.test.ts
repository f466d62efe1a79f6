// `skein exec` on Codex's default model family (code mode), against Codex 0.171.0's recorded u1
// transcript reduced to its shape (fixtures/codex-code-mode.shape.json): the same `exec --json`
// events (the nested command as a command_execution pair, no item for the cell), the same input
// items in each request, and the cell's answer.
import { readFileSync } from 'node:fs';
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
});
