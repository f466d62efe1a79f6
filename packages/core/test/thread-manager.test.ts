// Threads that survive a restart: start a thread, run a turn, drop everything, resume it from its
// rollout file with a new manager, fork it — asserting on what the model receives each time.
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@skein/config';
import { ExtensionRegistryBuilder, defineExtension, type ExtensionRegistry } from '@skein/extension-api';
import { FileThreadStore, type ThreadStore } from '@skein/rollout';
import { assistantMessage, completed, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ThreadManager, type CoreEvent, type ThreadRegistryEvent } from '../src/index.js';

let scratch: string;
let home: string;
let cwd: string;
let server: MockResponsesServer;
const stores: ThreadStore[] = [];

beforeEach(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-threads-'));
  home = path.join(scratch, 'home');
  cwd = path.join(scratch, 'work');
  mkdirSync(home);
  mkdirSync(cwd);
  server = await startMockResponsesServer();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  // Closing verifies the mock model: no unexpected request, no unused response.
  try {
    await server.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

/** A manager as a fresh process would build it. */
async function manager(extraOverrides: string[] = [], extensions: ExtensionRegistry = new ExtensionRegistryBuilder().build()): Promise<ThreadManager> {
  const { config } = await loadConfig({
    cwd,
    env: {},
    homeDir: home,
    overrides: [`model_providers.mock={ name = "Mock", base_url = "${server.url}", request_max_retries = 0 }`, 'model_provider=mock', 'model="gpt-5.5"', ...extraOverrides],
  });
  const store = await FileThreadStore.open({ home });
  stores.push(store);
  return new ThreadManager({
    store,
    config,
    extensions,
    env: {},
    host: { shell: 'bash', timezone: 'Etc/UTC' },
    originator: 'skein_test',
    source: 'exec',
    cliVersion: '0.0.0',
  });
}

const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
const inputOf = (index: number) => server.requests[index]!.body!.input;
const withoutId = (item: unknown) => {
  const { id: _id, ...rest } = item as Record<string, unknown>;
  return rest;
};

describe('ThreadManager', () => {
  it('resumes a thread from its rollout with the history it had, continuing the same file', async () => {
    server.expect([sse(assistantMessage('First answer.'), completed()), sse(assistantMessage('Second answer.'), completed())]);
    const events: CoreEvent[] = [];
    const first = await (await manager()).start({ onEvent: (event) => events.push(event) });
    await first.runTurn(say('Hello'));
    const historyBefore = [...first.history()];
    await first.close();

    const again = await manager();
    const listed = await again.list({ limit: 10 });
    expect(listed.data.map((thread) => [thread.id, thread.title])).toEqual([[first.threadId, 'Hello']]);

    const resumed = await again.resume(first.threadId, { onEvent: () => undefined });
    expect(resumed.path).toBe(first.path);
    expect(resumed.history()).toEqual(historyBefore);
    await resumed.runTurn(say('Again'));
    await resumed.close();

    // The second request is the first one's input, the answer, and the new message — nothing re-sent.
    const [firstInput, secondInput] = [inputOf(0), inputOf(1)];
    // The base instructions live in the rollout's header, so a new process gives their message a new id.
    expect(withoutId(secondInput[0])).toEqual(withoutId(firstInput[0]));
    expect(secondInput.slice(1, firstInput.length)).toEqual(firstInput.slice(1));
    const tail = secondInput.slice(firstInput.length) as Record<string, unknown>[];
    expect(tail.map((item) => [item.type, item.role])).toEqual([['message', 'assistant'], ['message', 'user']]);
    expect(server.requests[1]!.messageTexts('user').at(-1)).toBe('Again');

    // Both requests identify the same thread and session, each with its own turn.
    const id = first.threadId;
    const metadata = server.requests.map((request) => JSON.parse(request.header('x-codex-turn-metadata') ?? '{}') as Record<string, unknown>);
    for (const request of server.requests) {
      expect(request.header('originator')).toBe('skein_test');
      expect(request.header('user-agent')).toBe('skein_test/0.0.0');
      expect(request.header('session-id')).toBe(id);
      expect(request.header('x-codex-window-id')).toBe(`${id}:0`);
      expect(request.body).toMatchObject({ prompt_cache_key: id, client_metadata: { thread_id: id, session_id: id } });
    }
    // The manager names no thread source: the metadata has none (Codex's app-server without threadSource), before and after the resume.
    expect(metadata.map((entry) => [entry.thread_id, entry.thread_source, entry.request_kind, entry.history_initialization])).toEqual([[id, undefined, 'turn', 'new'], [id, undefined, 'turn', 'cold_resume']]);
    expect(metadata[0]!.turn_id).not.toBe(metadata[1]!.turn_id);

    const reloaded = await (await manager()).read(first.threadId);
    expect(reloaded.turns).toHaveLength(2);
    expect(reloaded.history.map((item) => item.id)).toEqual(resumed.history().map((item) => item.id));
    expect(reloaded.problems).toEqual([]);
  });

  it('names the enabled experimental features in x-codex-beta-features, sorted, beside remote_compaction_v2', async () => {
    server.expect([sse(assistantMessage('Plain.'), completed()), sse(assistantMessage('Beta.'), completed())]);
    const plain = await (await manager()).start({ onEvent: () => undefined });
    await plain.runTurn(say('Hi'));
    await plain.close();
    // Two experimental features and a stable one (only the experimental ones are listed).
    const beta = await (await manager(['features.prevent_idle_sleep=true', 'features.network_proxy=true', 'features.shell_snapshot=true'])).start({ onEvent: () => undefined });
    await beta.runTurn(say('Hi'));
    await beta.close();
    expect(server.requests.map((request) => request.header('x-codex-beta-features'))).toEqual(['remote_compaction_v2', 'network_proxy,prevent_idle_sleep,remote_compaction_v2']);
  });

  it('keeps the base instructions in the rollout header, and a resumed thread runs with the recorded ones', async () => {
    server.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed())]);
    const first = await (await manager(['instructions="Recorded rules."'])).start({ onEvent: () => undefined });
    await first.runTurn(say('Hi'));
    await first.close();
    const lines = readFileSync(first.path!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
    expect(lines[0]!.payload.base_instructions).toEqual({ text: 'Recorded rules.' });
    expect(lines.filter((line) => line.type === 'response_item' && JSON.stringify(line.payload).includes('Recorded rules.'))).toEqual([]);

    const resumed = await (await manager(['instructions="Newer rules."'])).resume(first.threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('Again'));
    await resumed.close();
    expect(server.requests.map((request) => (request.body!.input[0] as unknown as { content: { text: string }[] }).content[0]!.text)).toEqual(['Recorded rules.', 'Recorded rules.']);
  });

  it('counts tokens across turns, records them as token_count lines, and restores the total on resume', async () => {
    server.expect([sse(assistantMessage('One.'), completed({ usage: { inputTokens: 100, outputTokens: 10 } })), sse(assistantMessage('Two.'), completed({ usage: { inputTokens: 40, outputTokens: 5 } }))]);
    const events: CoreEvent[] = [];
    const first = await (await manager()).start({ onEvent: (event) => events.push(event) });
    await first.runTurn(say('Count'));
    await first.close();
    const resumed = await (await manager()).resume(first.threadId, { onEvent: (event) => events.push(event) });
    expect(resumed.tokenUsage).toMatchObject({ inputTokens: 100, outputTokens: 10, totalTokens: 110 });
    await resumed.runTurn(say('Again'));
    await resumed.close();
    const usage = events.flatMap((event) => (event.type === 'threadTokenUsage' ? [[event.last.totalTokens, event.total.totalTokens, event.modelContextWindow]] : []));
    expect(usage).toEqual([[110, 110, 258_400], [45, 155, 258_400]]);
    const lines = readFileSync(resumed.path!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: { type?: string; info?: unknown } });
    const counts = lines.filter((line) => line.type === 'event_msg' && line.payload.type === 'token_count').map((line) => line.payload.info);
    expect(counts.at(-1)).toEqual({
      total_token_usage: { input_tokens: 140, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 15, reasoning_output_tokens: 0, total_tokens: 155 },
      last_token_usage: { input_tokens: 40, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 5, reasoning_output_tokens: 0, total_tokens: 45 },
      model_context_window: 258_400,
    });
  });

  it('tells a resumed thread what changed since its last turn: new permissions, and nothing else', async () => {
    server.expect([sse(assistantMessage('Wrote it.'), completed()), sse(assistantMessage('Now read-only.'), completed())]);
    const writer = await (await manager(['sandbox_mode="workspace-write"'])).start({ onEvent: () => undefined });
    await writer.runTurn(say('Write a file'));
    await writer.close();

    const reader = await (await manager(['sandbox_mode="read-only"'])).resume(writer.threadId, { onEvent: () => undefined });
    await reader.runTurn(say('Now look only'));
    await reader.close();

    const added = inputOf(1).slice(inputOf(0).length + 1) as Record<string, unknown>[];
    const texts = added.map((item) => (item.content as { text: string }[])[0]!.text);
    expect(added.map((item) => item.role)).toEqual(['developer', 'user', 'user']);
    expect(texts[0]).toMatch(/^<permissions instructions>\nSandbox: read-only\./);
    expect(texts[1]).toContain('<file_system type="restricted"><entry access="read"><special>:root</special></entry></file_system>');
    expect(texts[2]).toBe('Now look only');
  });

  it('sends the whole initial context again when the first turn failed before recording it', async () => {
    server.expect([sse(assistantMessage('Hello.'), completed())]);
    const thread = await (await manager()).start({ onEvent: () => undefined });
    await expect(thread.runTurn([{ type: 'localImage', path: path.join(cwd, 'missing.png') }])).rejects.toThrow(/ENOENT/);
    await thread.runTurn(say('Hi'));
    await thread.close();
    const roles = (inputOf(0) as Record<string, unknown>[]).map((item) => item.role);
    expect(roles).toEqual(['developer', 'developer', 'user', 'user']);
  });

  it('restores world-state snapshots on resume, so an unchanged section is not announced again', async () => {
    server.expect([sse(assistantMessage('one'), completed()), sse(assistantMessage('two'), completed()), sse(assistantMessage('three'), completed())]);
    let version = 1;
    const registry = () =>
      new ExtensionRegistryBuilder()
        .add(
          defineExtension({
            id: 'clock',
            worldState: [
              {
                sectionId: 'version',
                snapshot: () => Promise.resolve(version),
                renderChange: (_previous, current) => `<version_changed>${JSON.stringify(current)}</version_changed>`,
              },
            ],
          }),
        )
        .build();
    const events: CoreEvent[] = [];
    const started = await (await manager([], registry())).start({ onEvent: (event) => events.push(event) });
    expect(events[0]).toMatchObject({ type: 'sessionConfigured', threadId: started.threadId, resumed: false, rolloutPath: started.path });
    await started.runTurn(say('first'));
    await started.close();

    const resumed = await (await manager([], registry())).resume(started.threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('second'));
    version = 2;
    await resumed.runTurn(say('third'));
    await resumed.close();

    // Each request replays the history, so it lists every announcement so far.
    const announced = (index: number) => server.requests[index]!.messageTexts('developer').filter((text) => text.startsWith('<version_changed>'));
    expect(announced(0)).toEqual(['<version_changed>1</version_changed>']);
    expect(announced(1)).toEqual(['<version_changed>1</version_changed>']);
    expect(announced(2)).toEqual(['<version_changed>1</version_changed>', '<version_changed>2</version_changed>']);
  });

  it('forks a thread into a new one with the same history and keeps the two apart', async () => {
    server.expect([sse(assistantMessage('Original.'), completed()), sse(assistantMessage('On the fork.'), completed())]);
    const threads = await manager();
    const original = await threads.start({ onEvent: () => undefined });
    await original.runTurn(say('Start'));
    await original.close();

    const fork = await threads.fork(original.threadId, { onEvent: () => undefined });
    expect(fork.threadId).not.toBe(original.threadId);
    expect(fork.history()).toEqual(original.history());
    await fork.runTurn(say('Branch'));
    await fork.close();

    expect(withoutId(inputOf(1)[0])).toEqual(withoutId(inputOf(0)[0]));
    expect(inputOf(1).slice(1, inputOf(0).length)).toEqual(inputOf(0).slice(1));
    const summaries = (await threads.list({ limit: 10 })).data;
    expect(summaries.find((thread) => thread.id === fork.threadId)?.forkedFromId).toBe(original.threadId);
    expect((await threads.read(original.threadId)).turns).toHaveLength(1);
    expect((await threads.read(fork.threadId)).turns).toHaveLength(2);
  });

  it('knows every live thread of the process and tells when one is created, loaded or closed', async () => {
    const threads = await manager();
    const seen: ThreadRegistryEvent[] = [];
    const stop = threads.onThreadEvent((event) => seen.push(event));
    const first = await threads.start({ onEvent: () => undefined });
    const second = await threads.start({ onEvent: () => undefined, ephemeral: true });
    expect(threads.loaded().map((handle) => handle.threadId)).toEqual([first.threadId, second.threadId]);
    expect(threads.get(first.threadId)).toBe(first);
    // One process loads a thread once; a second resume is refused instead of fighting over the file.
    await expect(threads.resume(first.threadId, { onEvent: () => undefined })).rejects.toMatchObject({ code: 'AlreadyLoaded' });
    await first.close();
    const again = await threads.resume(first.threadId, { onEvent: () => undefined });
    const fork = await threads.fork(first.threadId, { onEvent: () => undefined });
    for (const handle of [second, again, fork]) await handle.close();
    stop();
    expect(seen).toEqual([
      { type: 'created', threadId: first.threadId },
      { type: 'created', threadId: second.threadId },
      { type: 'closed', threadId: first.threadId },
      { type: 'loaded', threadId: first.threadId },
      { type: 'created', threadId: fork.threadId },
      { type: 'closed', threadId: second.threadId },
      { type: 'closed', threadId: first.threadId },
      { type: 'closed', threadId: fork.threadId },
    ]);
    expect(threads.loaded()).toEqual([]);
  });
});
