// `skein exec` with a goal the model creates and completes, against Codex 0.171.0's recorded w1
// transcript reduced to its shape (fixtures/codex-goals.shape.json): the same requests (the
// goal_objective item after create_goal's output included), the goal outputs' keys and numbers, and
// the same `exec --json` events (goals show none).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, sse, type CapturedRequest } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';
import { itemShape, toolName } from './support/request-shape.js';

let fixture: ExecScratch;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-goals-');
});
afterEach(() => fixture.cleanup());

interface RecordedShape {
  readonly events: unknown[];
  readonly requests: { readonly input: string[]; readonly tools: string[] }[];
  readonly goalOutputs: { readonly keys: string[]; readonly goalKeys: string[]; readonly status: string; readonly remainingTokens: number; readonly tokensUsed: number; readonly report: boolean }[];
}

describe('skein exec with a goal', () => {
  it("matches Codex's w1 transcript: create_goal, the goal_objective item, update_goal complete with its budget report", async () => {
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'codex-goals.shape.json'), 'utf8')) as RecordedShape;
    fixture.server.expect([
      sse(functionCall('create_goal', { objective: 'Say hello to the user', token_budget: 5000 }), completed()),
      sse(functionCall('update_goal', { status: 'complete' }), completed()),
      sse(assistantMessage('Hello! The goal is complete.'), completed()),
    ]);
    const { code, stdout } = await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'Set yourself the goal of saying hello, then mark it complete.']);
    expect(code).toBe(0);

    // Skills depend on what is installed.
    const comparable = (shape: string) => shape.replace('<skills_instructions>+', '');
    const ours = fixture.server.requests.map((request: CapturedRequest) => ({
      input: (request.body!.input as unknown as Record<string, unknown>[]).map((item) => comparable(itemShape(item))),
      tools: (request.body!.tools as { type: string; name?: string }[]).map(toolName),
    }));
    const expected = recorded.requests.map((request) => ({ input: request.input.map(comparable), tools: request.tools }));
    expect(ours).toEqual(expected);

    const last = fixture.server.requests.at(-1)!.body!.input;
    const outputs = last.filter((item) => item.type === 'function_call_output' && typeof item.call_id === 'string').map((item) => JSON.parse(item['output'] as string) as { goal: Record<string, unknown>; remainingTokens: number; completionBudgetReport: string | null });
    expect(outputs.map((output) => ({ keys: Object.keys(output).sort(), goalKeys: Object.keys(output.goal), status: output.goal['status'], remainingTokens: output.remainingTokens, tokensUsed: output.goal['tokensUsed'], report: output.completionBudgetReport !== null }))).toEqual(recorded.goalOutputs);

    const events = jsonLines(stdout).map((line) => JSON.parse(JSON.stringify(line).replaceAll(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<UUID:1>"')) as unknown);
    expect(events.slice(0, -1)).toEqual(recorded.events.slice(0, -1));
  });
});
