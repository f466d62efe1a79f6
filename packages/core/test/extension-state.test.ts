// Durable extension state and thread init data end to end: an extension's `thread` store and the
// host's `selectedCapabilityRoots` survive closing, resuming and forking a thread through real
// rollout files, read back by a fresh ThreadManager as a new process would.
import { appendFileSync, existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@skein/config';
import { ExtensionRegistryBuilder, defineExtension, type JsonValue, type SelectedCapabilityRoot, type ThreadLifecycleEvent } from '@skein/extension-api';
import { FileThreadStore, type ThreadStore } from '@skein/rollout';
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MAX_EXTENSION_STATE_VALUE_BYTES, ThreadManager, type CoreEvent } from '../src/index.js';

let scratch: string;
let home: string;
let cwd: string;
let server: MockResponsesServer;
const stores: ThreadStore[] = [];

beforeEach(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-ext-state-'));
  home = path.join(scratch, 'home');
  cwd = path.join(scratch, 'work');
  mkdirSync(home);
  mkdirSync(cwd);
  server = await startMockResponsesServer();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  try {
    await server.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

/** What the extension's lifecycle hooks saw, in order. */
interface Sighting {
  readonly hook: 'start' | 'resume';
  readonly memo: unknown;
  readonly roots: readonly SelectedCapabilityRoot[];
}

/** An extension that keeps a memo in its thread store, set and read by tools, and reports what its hooks see. */
function memoExtension(sightings: Sighting[], onStart: (event: ThreadLifecycleEvent) => void = () => undefined) {
  return defineExtension({
    id: 'memo',
    lifecycle: {
      onThreadStart: (event) => {
        sightings.push({ hook: 'start', memo: event.thread.get('memo'), roots: event.init.selectedCapabilityRoots });
        event.thread.set('started', true);
        onStart(event);
        return Promise.resolve();
      },
      onThreadResume: (event) => {
        sightings.push({ hook: 'resume', memo: event.thread.get('memo'), roots: event.init.selectedCapabilityRoots });
        return Promise.resolve();
      },
    },
    tools: {
      tools: ({ thread }) =>
        Promise.resolve([
          {
            kind: 'function' as const,
            spec: { type: 'function' as const, name: 'memo_set', description: 'Keeps a memo.', strict: false, parameters: { type: 'object' as const, properties: { text: { type: 'string' } } } },
            arguments: z.object({ text: z.string() }),
            handle: ({ text }: { text: string }) => {
              thread.set('memo', text);
              return Promise.resolve({ output: 'kept', success: true });
            },
          },
          {
            kind: 'function' as const,
            spec: { type: 'function' as const, name: 'memo_read', description: 'Reads the memo.', strict: false, parameters: { type: 'object' as const, properties: {} } },
            arguments: z.object({}),
            handle: () => Promise.resolve({ output: `memo=${thread.get('memo', z.string()) ?? '(none)'} started=${String(thread.get('started', z.boolean()))}`, success: true }),
          },
        ]),
    },
  });
}

/** A manager as a fresh process would build it. */
async function manager(sightings: Sighting[], onStart?: (event: ThreadLifecycleEvent) => void): Promise<ThreadManager> {
  const { config } = await loadConfig({
    cwd,
    env: {},
    homeDir: home,
    overrides: [`model_providers.mock={ name = "Mock", base_url = "${server.url}", request_max_retries = 0 }`, 'model_provider=mock', 'model="gpt-5.5"'],
  });
  const store = await FileThreadStore.open({ home });
  stores.push(store);
  return new ThreadManager({
    store,
    config,
    extensions: new ExtensionRegistryBuilder().add(memoExtension(sightings, onStart)).build(),
    env: {},
    host: { shell: 'bash', timezone: 'Etc/UTC' },
    originator: 'skein_test',
    source: 'exec',
    cliVersion: '0.0.0',
  });
}

const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
const ROOTS: SelectedCapabilityRoot[] = [{ id: 'skills-root', location: { type: 'environment', environmentId: 'local', path: '/opt/capabilities/skills' } }];
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; ordinal?: number; payload: Record<string, unknown> });
const stateLines = (file: string) => lines(file).filter((line) => line.type === 'skein_extension_state').map((line) => line.payload);
const memoTurn = (text: string) => [sse(functionCall('memo_set', { text }, { callId: `call_set_${text}` }), completed()), sse(assistantMessage(`Kept ${text}.`), completed())];
const readTurn = (callId: string) => [sse(functionCall('memo_read', {}, { callId }), completed()), sse(assistantMessage('Read.'), completed())];
const toolOutput = (callId: string) => server.requests.map((request) => request.toolOutputText(callId)).find((text) => text !== undefined);

describe('durable extension state', () => {
  it('survives closing the thread: restored before onThreadResume, and a later turn reads it', async () => {
    server.expect([...memoTurn('PINEAPPLE'), ...readTurn('call_read')]);
    const sightings: Sighting[] = [];
    const first = await (await manager(sightings)).start({ onEvent: () => undefined, init: { selectedCapabilityRoots: ROOTS } });
    await first.runTurn(say('Remember PINEAPPLE.'));
    await first.close();

    // Each change is one line of ours: the start hook's set (outside any turn) and the tool's.
    expect(stateLines(first.path!)).toEqual([
      { extension_id: 'memo', key: 'started', value: true },
      { extension_id: 'memo', key: 'memo', value: 'PINEAPPLE' },
    ]);

    const resumed = await (await manager(sightings)).resume(first.threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('What was it?'));
    await resumed.close();
    expect(sightings).toEqual([
      { hook: 'start', memo: undefined, roots: ROOTS },
      { hook: 'resume', memo: 'PINEAPPLE', roots: ROOTS },
    ]);
    expect(toolOutput('call_read')).toBe('memo=PINEAPPLE started=true');
    // Reading changes nothing, so the resumed thread wrote no state line.
    expect(stateLines(first.path!)).toHaveLength(2);
  });

  it('records the capability roots in the header as Codex does (file: URIs) and hands them back on resume', async () => {
    const sightings: Sighting[] = [];
    const first = await (await manager(sightings)).start({ onEvent: () => undefined, init: { selectedCapabilityRoots: ROOTS } });
    await first.close();
    expect(lines(first.path!)[0]!.payload.selected_capability_roots).toEqual([
      { id: 'skills-root', location: { type: 'environment', environmentId: 'local', path: 'file:///opt/capabilities/skills' } },
    ]);
    const resumed = await (await manager(sightings)).resume(first.threadId, { onEvent: () => undefined });
    await resumed.close();
    expect(sightings.map((sighting) => [sighting.hook, sighting.roots])).toEqual([
      ['start', ROOTS],
      ['resume', ROOTS],
    ]);
  });

  it('is carried by a fork: whole, and up to an earlier turn with the state that turn left', async () => {
    server.expect([...memoTurn('one'), ...memoTurn('two')]);
    const sightings: Sighting[] = [];
    const threads = await manager(sightings);
    const first = await threads.start({ onEvent: () => undefined, init: { selectedCapabilityRoots: ROOTS } });
    await first.runTurn(say('First.'));
    await first.runTurn(say('Second.'));
    await first.close();
    const [turnOne] = (await threads.read(first.threadId)).turns;

    const whole = await threads.fork(first.threadId, { onEvent: () => undefined });
    await whole.close();
    const early = await threads.fork(first.threadId, { onEvent: () => undefined, upTo: { turnId: turnOne!.turnId! } });
    await early.close();

    expect(sightings.slice(1)).toEqual([
      { hook: 'resume', memo: 'two', roots: ROOTS },
      { hook: 'resume', memo: 'one', roots: ROOTS },
    ]);
    expect(stateLines(early.path!)).toEqual([
      { extension_id: 'memo', key: 'started', value: true },
      { extension_id: 'memo', key: 'memo', value: 'one' },
    ]);
  });

  it('stays in memory for an ephemeral thread, which writes no file', async () => {
    server.expect([...memoTurn('fleeting'), ...readTurn('call_read_ephemeral')]);
    const sightings: Sighting[] = [];
    const thread = await (await manager(sightings)).start({ onEvent: () => undefined, ephemeral: true, init: { selectedCapabilityRoots: ROOTS } });
    await thread.runTurn(say('Remember.'));
    await thread.runTurn(say('Read it.'));
    await thread.close();
    expect(thread.path).toBeUndefined();
    expect(toolOutput('call_read_ephemeral')).toBe('memo=fleeting started=true');
    expect(sightings).toEqual([{ hook: 'start', memo: undefined, roots: ROOTS }]);
    const sessions = path.join(home, 'sessions');
    expect(existsSync(sessions) ? readdirSync(sessions, { recursive: true }).filter((name) => String(name).endsWith('.jsonl')) : []).toEqual([]);
  });

  it('refuses a value over the size limit, naming the key, and records nothing for it', async () => {
    const refusals: unknown[] = [];
    const thread = await (
      await manager([], ({ thread: store }) => {
        try {
          store.set('huge', 'x'.repeat(MAX_EXTENSION_STATE_VALUE_BYTES));
        } catch (error) {
          refusals.push(error);
        }
        store.set('small', { fits: true });
      })
    ).start({ onEvent: () => undefined });
    await thread.close();
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toBeInstanceOf(RangeError);
    expect((refusals[0] as Error).message).toContain("'huge'");
    expect(stateLines(thread.path!)).toEqual([
      { extension_id: 'memo', key: 'started', value: true },
      { extension_id: 'memo', key: 'small', value: { fits: true } },
    ]);
  });

  it('reports a state line that fails its schema as a load problem, and resumes with the rest', async () => {
    server.expect(memoTurn('intact'));
    const sightings: Sighting[] = [];
    const first = await (await manager(sightings)).start({ onEvent: () => undefined });
    await first.runTurn(say('Keep it.'));
    await first.close();
    const last = lines(first.path!).at(-1)!;
    const bad: { timestamp: string; ordinal: number; type: string; payload: JsonValue } = {
      timestamp: '2026-11-30T12:00:00.000Z',
      ordinal: (last.ordinal ?? 0) + 1,
      type: 'skein_extension_state',
      payload: { extension_id: 'memo', key: 'memo' },
    };
    appendFileSync(first.path!, `${JSON.stringify(bad)}\n`);

    const again = await manager(sightings);
    const loaded = await again.read(first.threadId);
    expect(loaded.problems).toEqual([expect.objectContaining({ kind: 'invalid-line', message: expect.stringContaining('skein_extension_state') as string })]);
    const events: CoreEvent[] = [];
    const resumed = await again.resume(first.threadId, { onEvent: (event) => events.push(event) });
    await resumed.close();
    expect(sightings.at(-1)).toEqual({ hook: 'resume', memo: 'intact', roots: [] });
  });
});
