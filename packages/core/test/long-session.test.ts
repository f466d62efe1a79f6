// A long session against the mock model with a small window: 300 turns, a compaction whenever a
// response reports the window full. The history stays bounded, every compaction is recorded, and a
// thread resumed at the end sends what the live one would have.
import { readFileSync } from 'node:fs';
import { assistantMessage, completed, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { withoutResponseItemMetadata } from '@skein/protocol';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HANDOFF_SUMMARY_REQUEST, KEPT_USER_PROMPTS_MAX_TOKENS } from '../src/index.js';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';

let workspace: TestWorkspace;
let server: MockResponsesServer;

beforeEach(async () => {
  workspace = createTestWorkspace();
  server = await startMockResponsesServer();
});
afterEach(async () => {
  try {
    await server.close();
  } finally {
    await workspace.close();
  }
});

const TURNS = 300;
/** Turns per window: the usage reported grows by a quarter of the limit per turn, so the fourth fills it. */
const TURNS_PER_WINDOW = 4;
const LIMIT = 1_000;
// Each prompt is about 500 tokens, so 300 of them are far more than a compaction keeps.
const prompt = (turn: number) => `turn ${turn}: ${'lorem ipsum '.repeat(166)}`;
const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
type Item = { type: string; role?: string; id?: string; content?: { text?: string }[] };
const inputOf = (request: CapturedRequest) => request.body!.input as unknown as Item[];

it('runs 300 turns in a small window: bounded history, every compaction recorded, and a resume that sends the same request', async () => {
  const started = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', overrides: [`model_auto_compact_token_limit=${LIMIT}`] });
  const handle = started.thread;
  let compactions = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    const inWindow = ((turn - 1) % TURNS_PER_WINDOW) + 1;
    // A turn that opens a window (after the first) is preceded by the compaction of the last one.
    if (turn > 1 && inWindow === 1) {
      server.expect([sse(assistantMessage(`summary ${++compactions}`), completed({ usage: { inputTokens: 200, outputTokens: 20 } }))]);
    }
    server.expect([sse(assistantMessage(`answer ${turn}`), completed({ usage: { inputTokens: (LIMIT / TURNS_PER_WINDOW) * inWindow - 10, outputTokens: 10 } }))]);
    expect(await handle.runTurn(say(prompt(turn)))).toMatchObject({ status: 'completed' });
  }
  expect(compactions).toBe(TURNS / TURNS_PER_WINDOW - 1);
  expect(handle.contextWindow.windowNumber).toBe(compactions);
  expect(server.requests.filter((request) => request.header('x-codex-turn-metadata')?.includes('"request_kind":"compaction"'))).toHaveLength(compactions);

  // Bounded: the last request keeps only as many earlier prompts as the budget allows, not all 300.
  const last = server.requests.at(-1)!;
  const keptPrompts = inputOf(last).filter((item) => item.role === 'user' && (item.content?.[0]?.text ?? '').startsWith('turn '));
  expect(keptPrompts.length).toBeLessThan(TURNS / 4);
  expect(last.bodyBytes).toBeLessThan(KEPT_USER_PROMPTS_MAX_TOKENS * 4 * 2);
  expect(handle.history().length).toBeLessThan(TURNS / 4 + 20);

  // Every compaction has its line, each window numbered and linked to the one before.
  const liveWindow = handle.contextWindow;
  const liveHistory = handle.history().slice();
  await handle.close();
  const compacted = readFileSync(handle.path!, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; payload: { window_number?: number; window_id?: string; previous_window_id?: string } })
    .filter((line) => line.type === 'compacted')
    .map((line) => line.payload);
  expect(compacted.map((payload) => payload.window_number)).toEqual(Array.from({ length: compactions }, (_, index) => index + 1));
  for (let index = 1; index < compacted.length; index++) expect(compacted[index]!.previous_window_id).toBe(compacted[index - 1]!.window_id);

  // Resumed at the end, the thread is where the live one was; the window is full, so its next turn
  // compacts first, with the same input the live thread would have sent.
  const resumed = await (await started.newManager()).resume(handle.threadId, { onEvent: () => undefined });
  expect(resumed.contextWindow).toEqual(liveWindow);
  expect(resumed.history()).toEqual(liveHistory);
  server.expect([sse(assistantMessage('summary after resume'), completed()), sse(assistantMessage('answer after resume'), completed())]);
  await resumed.runTurn(say('one more'));
  const [compaction] = server.requests.slice(-2) as [CapturedRequest, CapturedRequest];
  // (The mock provider is not OpenAI, so requests carry items without Skein's metadata.)
  const expected = [...inputOf(last).slice(1), ...(liveHistory.slice(-1).map(withoutResponseItemMetadata) as unknown as Item[])];
  expect(inputOf(compaction).slice(1, -1)).toEqual(expected);
  expect(inputOf(compaction).at(-1)!.content?.[0]?.text).toBe(HANDOFF_SUMMARY_REQUEST);
  await resumed.close();
}, 120_000);
