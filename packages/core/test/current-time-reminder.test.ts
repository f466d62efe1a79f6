// Current-time reminders end to end against the mock model, with a fake clock: the developer
// message each request carries when one is due, the thread's cadence, and the fresh reminder after
// a compaction. Real config, real store, real commands; only the model and the clock are scripted.
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const START = Date.parse('2026-06-17T17:34:15.250Z');
/** A clock that stands still until a test moves it. */
function fakeClock() {
  let at = START;
  let monotonic = 0;
  return {
    clock: { now: () => new Date(at), monotonicMs: () => (monotonic += 1) },
    advance: (seconds: number) => (at += seconds * 1000),
  };
}

const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
type Item = { type: string; role?: string; content?: { text?: string }[] };
const inputOf = (request: CapturedRequest) => request.body!.input as unknown as Item[];
const textOf = (item: Item) => (item.content ?? []).map((part) => part.text ?? '').join('');
const reminder = (time: string) => `<current_time_reminder>The current time is ${time} UTC.</current_time_reminder>`;
/** The reminders a request carries, oldest first. */
const remindersOf = (request: CapturedRequest) =>
  inputOf(request).filter((item) => item.role === 'developer' && textOf(item).startsWith('<current_time_reminder>')).map(textOf);

async function thread(overrides: readonly string[], clock: ReturnType<typeof fakeClock>['clock']) {
  return startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', 'sandbox_mode="danger-full-access"', ...overrides], clock });
}

describe('current-time reminders', () => {
  it('are not sent while the feature is off', async () => {
    server.expect([sse(assistantMessage('Hi.'), completed())]);
    const { thread: handle } = await thread([], fakeClock().clock);
    await handle.runTurn(say('Hello.'));
    expect(remindersOf(server.requests[0]!)).toEqual([]);
  });

  it('tell the time after the prompt, again only once the clock has moved, and stay in the history', async () => {
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()),
      sse(assistantMessage('Done.'), completed()),
      sse(assistantMessage('Again.'), completed()),
    ]);
    const time = fakeClock();
    const { thread: handle } = await thread(['features.current_time_reminder=true'], time.clock);
    await handle.runTurn(say('Run it.'));
    time.advance(60);
    await handle.runTurn(say('Once more.'));

    const [first, afterTool, second] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    // Recorded just before the first request, after the user's prompt.
    expect(inputOf(first).slice(-2).map(textOf)).toEqual(['Run it.', reminder('2026-06-17 17:34:15')]);
    expect(inputOf(first).at(-1)).toMatchObject({ type: 'message', role: 'developer' });
    // The clock still reads the same second after the command: nothing new.
    expect(remindersOf(afterTool)).toEqual([reminder('2026-06-17 17:34:15')]);
    // A minute later the next turn is told the new time; the old reminder stays where it was.
    expect(remindersOf(second)).toEqual([reminder('2026-06-17 17:34:15'), reminder('2026-06-17 17:35:15')]);
    expect(inputOf(second).slice(-2).map(textOf)).toEqual(['Once more.', reminder('2026-06-17 17:35:15')]);
  });

  it('wait for the configured interval, and after a compaction tell the time at once', async () => {
    server.expect([
      sse(assistantMessage('One.'), completed()),
      sse(assistantMessage('Two.'), completed()),
      sse(assistantMessage('We said one and two.'), completed()),
      sse(assistantMessage('Three.'), completed()),
    ]);
    const time = fakeClock();
    const { thread: handle } = await thread(['features.current_time_reminder.enabled=true', 'features.current_time_reminder.reminder_interval_seconds=120'], time.clock);
    await handle.runTurn(say('One?'));
    time.advance(60);
    await handle.runTurn(say('Two?'));
    expect(await handle.compact()).toMatchObject({ status: 'completed' });
    time.advance(1);
    await handle.runTurn(say('Three?'));

    const [first, second, compaction, third] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest, CapturedRequest];
    expect(remindersOf(first)).toEqual([reminder('2026-06-17 17:34:15')]);
    // 60 seconds is within the 120-second interval.
    expect(remindersOf(second)).toEqual([reminder('2026-06-17 17:34:15')]);
    expect(remindersOf(compaction)).toEqual([reminder('2026-06-17 17:34:15')]);
    // The compaction dropped the old reminder; the new window is told the time before its first request.
    expect(remindersOf(third)).toEqual([reminder('2026-06-17 17:35:16')]);
    expect(inputOf(third).slice(-2).map(textOf)).toEqual(['Three?', reminder('2026-06-17 17:35:16')]);
  });

  it('in after_user_or_tool_output mode tell the new time after a tool output', async () => {
    server.expect([sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const time = fakeClock();
    // Five seconds pass with each response.
    const turnHooks = () => ({ afterResponse: [{ name: 'tick', afterResponse: () => void time.advance(5) }] });
    const overrides = ['features.current_time_reminder.enabled=true', 'features.current_time_reminder.delivery_mode="after_user_or_tool_output"'];
    const { thread: handle } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', 'sandbox_mode="danger-full-access"', ...overrides], clock: time.clock, turnHooks });
    await handle.runTurn(say('Run it.'));
    const [first, afterTool] = server.requests as [CapturedRequest, CapturedRequest];
    expect(remindersOf(first)).toEqual([reminder('2026-06-17 17:34:15')]);
    expect(inputOf(afterTool).slice(-2).map((item) => item.type)).toEqual(['function_call_output', 'message']);
    expect(remindersOf(afterTool)).toEqual([reminder('2026-06-17 17:34:15'), reminder('2026-06-17 17:34:20')]);
  });
});
