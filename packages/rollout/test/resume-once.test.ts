// Resume in one pass (issue #12): opening a thread to continue it opens and reads its file once —
// header, history, world state and token totals come from that read, and the writer continues on
// the same handle. Every open goes through the store's injected `openFile`, which this test watches.
import { existsSync } from 'node:fs';
import { appendFile, mkdir, open, readFile, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileThreadStore, currentProcessLockOwner, isWriterLockHeld, liveRolloutPath, loadThread, resumeRollout, type OpenFile } from '../src/index.js';
import { interceptedHandle } from './support/intercepted-handle.js';
import { asLines, assistantMessage, sessionMeta, steppingClock, temporaryHome, tokenCount, tokens, userTurn, uuidV7, worldState, writeJsonl } from './support/builders.js';

/** Counts opens and bytes read per path; any other way of reading a handle is recorded too. */
function watchedFileSystem() {
  let opens: string[] = [];
  let bytesRead = new Map<string, number>();
  let otherReads: string[] = [];
  const OTHER_READS = new Set<PropertyKey>(['readFile', 'readv', 'readLines', 'createReadStream', 'readableWebStream']);
  const openFile: OpenFile = async (filePath, flags) => {
    opens.push(filePath);
    return interceptedHandle(await open(filePath, flags), (property, method) => {
      if (property === 'read') {
        return async (...args: unknown[]) => {
          const result = (await method(...args)) as { bytesRead: number };
          bytesRead.set(filePath, (bytesRead.get(filePath) ?? 0) + result.bytesRead);
          return result;
        };
      }
      if (OTHER_READS.has(property)) otherReads.push(`${String(property)} ${filePath}`);
      return undefined;
    });
  };
  return {
    openFile,
    opensOf: (filePath: string) => opens.filter((opened) => opened === filePath).length,
    bytesReadOf: (filePath: string) => bytesRead.get(filePath) ?? 0,
    get otherReads() {
      return otherReads;
    },
    reset() {
      opens = [];
      bytesRead = new Map();
      otherReads = [];
    },
  };
}

const texts = (history: readonly unknown[]) => history.map((entry) => (entry as { content?: { text?: string }[] }).content?.[0]?.text);

let home: Awaited<ReturnType<typeof temporaryHome>>;
let fs: ReturnType<typeof watchedFileSystem>;
let store: FileThreadStore;
beforeEach(async () => {
  home = await temporaryHome();
  fs = watchedFileSystem();
  store = await FileThreadStore.open({ home: home.home, clock: steppingClock(Date.parse('2026-11-30T10:00:00.000Z'), 1000), openFile: fs.openFile });
});
afterEach(async () => {
  store.close();
  await home.dispose();
});

/** A closed thread of two turns with world state and token counts; answers its id and path. */
async function recordedThread(): Promise<{ readonly id: string; readonly filePath: string }> {
  const writer = await store.createThread({ meta: { cwd: '/workspace', source: 'exec', originator: 'skein_test', model_provider: 'mock' } });
  await writer.append(worldState({ agents_md: { hash: 'a1' }, skills: { hash: 's1' } }, true), tokenCount(null));
  await writer.append(...userTurn('t1', 'one', assistantMessage('a1')), tokenCount({ total_token_usage: tokens(100, 10), last_token_usage: tokens(100, 10), model_context_window: 272000 }));
  await writer.append(worldState({ skills: { hash: 's2' } }));
  await writer.append(...userTurn('t2', 'two', assistantMessage('a2')), tokenCount({ total_token_usage: tokens(300, 25, 80), last_token_usage: tokens(200, 15, 80), model_context_window: 272000 }));
  await writer.close();
  return { id: writer.threadId, filePath: writer.path };
}

describe('ThreadStore.openForResume', () => {
  it('opens and reads the rollout file exactly once, and reconstructs everything a resume needs (issue #12)', async () => {
    const { id, filePath } = await recordedThread();
    const size = (await stat(filePath)).size;
    fs.reset();

    const { writer, loaded } = await store.openForResume(id);

    expect(fs.opensOf(filePath)).toBe(1);
    expect(fs.bytesReadOf(filePath)).toBe(size);
    expect(fs.otherReads).toEqual([]);
    expect(loaded.meta.id).toBe(id);
    expect(texts(loaded.history)).toEqual(['one', 'a1', 'two', 'a2']);
    expect(loaded.referenceTurnContext?.turn_id).toBe('t2');
    expect(loaded.worldState).toEqual([
      { sectionId: 'agents_md', snapshot: { hash: 'a1' } },
      { sectionId: 'skills', snapshot: { hash: 's2' } },
    ]);
    expect(loaded.tokenCount).toEqual({
      total_token_usage: { ...tokens(300, 25, 80), cache_write_input_tokens: 0 },
      last_token_usage: { ...tokens(200, 15, 80), cache_write_input_tokens: 0 },
      model_context_window: 272000,
    });
    expect(loaded.problems).toEqual([]);

    // The writer continues the same file, with the next ordinal, from the same open.
    expect(writer.nextOrdinal).toBe((loaded.lastOrdinal ?? -1) + 1);
    await writer.append(...userTurn('t3', 'three', assistantMessage('a3')));
    await writer.close();
    expect(fs.opensOf(filePath)).toBe(1);
    const after = await loadThread(filePath);
    expect(texts(after.history)).toEqual(['one', 'a1', 'two', 'a2', 'three', 'a3']);
    expect(after.problems).toEqual([]);
  });

  it('is watched by a capability that sees every open: a writer-only resume plus a separate load opens the file more than once', async () => {
    // Guards the test above: the same watcher does count the opens of the path the old way takes.
    const { id, filePath } = await recordedThread();
    fs.reset();
    const writer = await store.resumeThread(id);
    await store.loadThread(id);
    await writer.close();
    expect(fs.opensOf(filePath)).toBeGreaterThan(1);
  });

  it('skips a malformed world_state line and a malformed token_count in the same read', async () => {
    const { id, filePath } = await recordedThread();
    const next = (await loadThread(filePath)).lastOrdinal ?? 0;
    await appendFile(
      filePath,
      [
        { timestamp: '2026-11-30T11:00:00.000Z', ordinal: next + 1, type: 'world_state', payload: { full: true, state: 'not sections' } },
        { timestamp: '2026-11-30T11:00:00.000Z', ordinal: next + 2, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: 'many' } } },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    fs.reset();

    const { writer, loaded } = await store.openForResume(id);
    await writer.close();

    expect(fs.opensOf(filePath)).toBe(1);
    expect(loaded.worldState.map((section) => section.snapshot)).toEqual([{ hash: 'a1' }, { hash: 's2' }]);
    expect(loaded.tokenCount?.total_token_usage.total_tokens).toBe(325);
    expect(loaded.problems.map((problem) => problem.kind)).toEqual(['invalid-line']);
    // The token_count line is a valid event line (only its info is malformed), so ordinals go on after it.
    expect(writer.nextOrdinal).toBe(next + 3);
  });

  it('cuts a torn last line off in the same read, and reports it', async () => {
    const { id, filePath } = await recordedThread();
    const whole = await readFile(filePath, 'utf8');
    await appendFile(filePath, '{"timestamp":"2026-11-30T11:00:00.000Z","ordinal":99,"type":"event_');
    const size = (await stat(filePath)).size;
    fs.reset();

    const { writer, loaded } = await store.openForResume(id);

    expect(fs.opensOf(filePath)).toBe(1);
    expect(fs.bytesReadOf(filePath)).toBe(size);
    expect(loaded.problems.map((problem) => problem.kind)).toEqual(['torn-tail']);
    expect(await readFile(filePath, 'utf8')).toBe(whole);
    await writer.append(...userTurn('t3', 'three'));
    await writer.close();
    const after = await loadThread(filePath);
    expect(after.problems).toEqual([]);
    expect(after.turns.map((turn) => turn.turnId)).toEqual(['t1', 't2', 't3']);
  });

  it('completes a last line that lost only its newline, keeping it', async () => {
    const { id, filePath } = await recordedThread();
    const whole = await readFile(filePath, 'utf8');
    await truncate(filePath, Buffer.byteLength(whole) - 1);

    const { writer, loaded } = await store.openForResume(id);

    expect(loaded.problems).toEqual([]);
    expect(loaded.tokenCount?.total_token_usage.total_tokens).toBe(325);
    expect(await readFile(filePath, 'utf8')).toBe(whole);
    await writer.append(...userTurn('t3', 'three'));
    await writer.close();
    const after = await loadThread(filePath);
    expect(after.problems).toEqual([]);
    expect(after.turns.map((turn) => turn.turnId)).toEqual(['t1', 't2', 't3']);
  });

  it('reads a fork and the parent whose history it references once each', async () => {
    const parentId = uuidV7(1);
    const childId = uuidV7(2);
    const parentPath = liveRolloutPath(home.home, parentId, new Date('2026-11-30T09:00:00.000Z'));
    const childPath = liveRolloutPath(home.home, childId, new Date('2026-11-30T09:30:00.000Z'));
    await mkdir(path.dirname(parentPath), { recursive: true });
    // The fork inherits the parent's first 7 lines (header, a snapshot, turn t1), not what follows.
    const parentLines = asLines([{ type: 'session_meta', payload: sessionMeta(parentId) }, worldState({ skills: { hash: 'p1' } }, true), ...userTurn('t1', 'one', assistantMessage('a1')), worldState({ skills: { hash: 'p2' } }), ...userTurn('t2', 'two')]);
    await writeJsonl(parentPath, parentLines);
    const cut = Buffer.byteLength(parentLines.slice(0, 7).map((line) => `${JSON.stringify(line)}\n`).join(''));
    const childMeta = sessionMeta(childId, { forked_from_id: parentId, history_base: { thread_id: parentId, end_ordinal_exclusive: 7, end_byte_offset: cut } });
    await writeJsonl(childPath, asLines([{ type: 'session_meta', payload: childMeta }, ...userTurn('t3', 'three', assistantMessage('a3'))], 7));
    await store.reconcile();
    fs.reset();

    const { writer, loaded } = await store.openForResume(childId);
    await writer.close();

    expect(fs.opensOf(childPath)).toBe(1);
    expect(fs.opensOf(parentPath)).toBe(1);
    expect(loaded.meta.id).toBe(childId);
    expect(texts(loaded.history)).toEqual(['one', 'a1', 'three', 'a3']);
    expect(loaded.worldState).toEqual([{ sectionId: 'skills', snapshot: { hash: 'p1' } }]);
    expect(writer.nextOrdinal).toBe(13);
  });

  it('takes the writer lock before reading: a busy thread is refused without being read', async () => {
    const { id, filePath } = await recordedThread();
    const first = await store.openForResume(id);
    fs.reset();
    await expect(store.openForResume(id)).rejects.toMatchObject({ code: 'WriterBusy' });
    expect(fs.opensOf(filePath)).toBe(0);
    await first.writer.close();
  });

  it('neither creates a vanished file nor keeps its lock', async () => {
    const id = uuidV7(9);
    const filePath = liveRolloutPath(home.home, id, new Date('2026-11-30T09:00:00.000Z'));
    await mkdir(path.dirname(filePath), { recursive: true });
    await expect(resumeRollout(filePath, { home: home.home })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(filePath)).toBe(false);
    expect(await isWriterLockHeld(home.home, id, currentProcessLockOwner())).toBe(false);
  });

  it('refuses a file that is not a thread, releasing the lock', async () => {
    const id = uuidV7(10);
    const filePath = liveRolloutPath(home.home, id, new Date('2026-11-30T09:00:00.000Z'));
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeJsonl(filePath, asLines(userTurn('t1', 'one')));
    await expect(resumeRollout(filePath, { home: home.home })).rejects.toMatchObject({ code: 'MissingSessionMeta' });
    expect(await isWriterLockHeld(home.home, id, currentProcessLockOwner())).toBe(false);
  });
});
