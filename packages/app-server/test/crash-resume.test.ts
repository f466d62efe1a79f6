// Nothing accepted is lost (issue #13, §8): the built app-server is SIGKILLed at a known point of a
// turn, a new one resumes the thread, and the model's next request must hold everything the killed
// server had accepted, as Codex 0.171.0 gives it: the interrupted turn's input and the calls it had
// started (each answered `aborted`) or the answer it had streamed, no aborted-turn marker; `thread/read`
// shows the turn interrupted.
import { readFileSync } from 'node:fs';
import {
  assistantMessage,
  completed,
  functionCall,
  held,
  mockProviderConfigToml,
  sse,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let release: () => void = () => undefined;

beforeEach(async () => {
  model = await startMockResponsesServer();
  // The sandbox is the thread's setting on start and on resume alike, so the resumed request adds no
  // permissions update and holds only what the turns recorded.
  home = makeHome(`sandbox_mode = "danger-full-access"\napproval_policy = "never"\n${mockProviderConfigToml(model.url)}`);
});

afterEach(async () => {
  release();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

interface InputItem {
  readonly type: string;
  readonly role?: string;
  readonly content?: readonly { readonly text?: string }[];
  readonly call_id?: string;
  readonly output?: unknown;
  readonly name?: string;
}

/**
 * The request items after the first request's, in a compact form: what the resumed model sees anew.
 * The base instructions (item 0) are not part of the recorded history; each process gives them an id.
 */
function itemsAfter(first: readonly InputItem[], next: readonly InputItem[]): unknown[] {
  const withoutId = (item: InputItem | undefined) => ({ ...item, id: undefined });
  expect(withoutId(next[0])).toEqual(withoutId(first[0]));
  expect(next.slice(1, first.length)).toEqual(first.slice(1));
  return next.slice(first.length).map((item) => {
    if (item.type === 'message') return [item.role, item.content?.map((part) => part.text).join('')];
    if (item.type === 'function_call') return ['function_call', item.name, item.call_id];
    if (item.type === 'function_call_output') return ['function_call_output', item.call_id, item.output];
    return [item.type];
  });
}

/** Starts a thread and its first turn; answers the thread id and its rollout file. */
async function startTurn(client: AppServerTestClient): Promise<{ threadId: string; path: string }> {
  await client.initialize();
  const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string; path: string } };
  await client.request('turn/start', { threadId: thread.id, input: text('first prompt') });
  return { threadId: thread.id, path: thread.path };
}

async function kill(client: ReturnType<typeof spawnStdioClient>): Promise<void> {
  const exited = new Promise((resolve) => client.process.once('exit', resolve));
  client.process.kill('SIGKILL');
  await exited;
  // The killed client's recorded schema problems still count.
  expect(client.schemaFailures).toEqual([]);
}

/** The user messages the rollout file holds, in order. */
function recordedUserTexts(rolloutPath: string): string[] {
  return readFileSync(rolloutPath, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; payload: InputItem })
    .filter((line) => line.type === 'response_item' && line.payload.type === 'message' && line.payload.role === 'user')
    .map((line) => line.payload.content?.map((part) => part.text).join('') ?? '');
}

/** Resumes the thread in a new server, reads it, and runs a second turn; answers what `thread/read` showed. */
async function resumeAndContinue(threadId: string): Promise<{ readonly turns: { status: string; items: { type: string }[] }[] }> {
  model.expect([sse(assistantMessage('Second answer.'), completed())]);
  const next = spawnStdioClient(home);
  try {
    await next.initialize();
    const resumed = (await next.request('thread/resume', { threadId })) as { thread: { turns: { status: string }[] } };
    expect(resumed.thread.turns.map((turn) => turn.status)).toEqual(['interrupted']);
    const read = (await next.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { status: string; items: { type: string }[] }[] } };
    await next.request('turn/start', { threadId, input: text('second prompt') });
    await next.waitFor('turn/completed');
    return read.thread;
  } finally {
    await next.close();
  }
}

describe('a thread whose app-server was killed mid-turn', () => {
  it('keeps the input of a turn killed while its first request waits for the model', async () => {
    model.expect([held(sse(assistantMessage('never sent'), completed()), { before: 'start', until: new Promise<void>((resolve) => (release = resolve)) })]);
    const client = spawnStdioClient(home);
    const { threadId, path } = await startTurn(client);
    await expect.poll(() => model.requests.length, { timeout: 15_000 }).toBe(1);
    await kill(client);
    // The request reached the model, so the input was in the file before it left.
    expect(recordedUserTexts(path).at(-1)).toBe('first prompt');
    const first = model.requests[0]!.body!.input as InputItem[];

    const thread = await resumeAndContinue(threadId);
    expect(thread.turns.map((turn) => [turn.status, turn.items.map((item) => item.type)])).toEqual([['interrupted', ['userMessage']]]);
    expect(itemsAfter(first, model.requests[1]!.body!.input as InputItem[])).toEqual([['user', 'second prompt']]);
  });

  it('keeps the input and the streamed answer of a turn killed before its response completed', async () => {
    // The answer is whole (its output item done) but response.completed never comes: Codex 0.171.0
    // has recorded the answer by then, and a resume gives it to the model and shows it in thread/read.
    model.expect([held(sse(assistantMessage(['The ', 'answer.']), completed()), { before: 'completed', until: new Promise<void>((resolve) => (release = resolve)) })]);
    const client = spawnStdioClient(home);
    const { threadId, path } = await startTurn(client);
    await client.waitFor('item/completed', (params) => (params as { item: { type: string } }).item.type === 'agentMessage');
    // The answer reaches the file while the response is still open (the writer appends as it goes).
    await expect.poll(() => readFileSync(path, 'utf8'), { timeout: 15_000 }).toContain('The answer.');
    await kill(client);
    const first = model.requests[0]!.body!.input as InputItem[];

    const thread = await resumeAndContinue(threadId);
    expect(thread.turns.map((turn) => [turn.status, turn.items.map((item) => item.type)])).toEqual([['interrupted', ['userMessage', 'agentMessage']]]);
    expect(itemsAfter(first, model.requests[1]!.body!.input as InputItem[])).toEqual([
      ['assistant', 'The answer.'],
      ['user', 'second prompt'],
    ]);
  });

  it('keeps the input and the started command of a turn killed while the command runs', async () => {
    model.expect([sse(functionCall('exec_command', { cmd: 'sleep 20' }, { callId: 'call_sleep' }), completed())]);
    const client = spawnStdioClient(home);
    const { threadId } = await startTurn(client);
    await client.waitFor('item/started', (params) => (params as { item: { type: string } }).item.type === 'commandExecution');
    await kill(client);
    const first = model.requests[0]!.body!.input as InputItem[];

    const thread = await resumeAndContinue(threadId);
    expect(thread.turns.map((turn) => [turn.status, turn.items.map((item) => item.type)])).toEqual([['interrupted', ['userMessage']]]);
    expect(itemsAfter(first, model.requests[1]!.body!.input as InputItem[])).toEqual([
      ['function_call', 'exec_command', 'call_sleep'],
      ['function_call_output', 'call_sleep', 'aborted'],
      ['user', 'second prompt'],
    ]);
  });
});
