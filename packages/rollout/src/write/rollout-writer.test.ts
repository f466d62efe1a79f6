import { appendFile, open, readFile, stat, truncate } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantMessage, functionCall, item, steppingClock, taskComplete, temporaryHome, userMessage, userTurn, threadId } from '../../test/support/builders.js';
import { interceptedHandle } from '../../test/support/intercepted-handle.js';
import { readRolloutFile } from '../read/rollout-reader.js';
import { loadThread } from '../reconstruct/load-thread.js';
import type { OpenFile } from '../open-file.js';
import { RolloutError } from '../rollout-error.js';
import { RolloutWriter, type RolloutWriterOptions } from './rollout-writer.js';
import type { LockOwner } from './writer-lock.js';

const THREAD = threadId(1);
let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

const meta = { cwd: '/workspace', originator: 'skein_test', cli_version: '0.0.0', source: 'exec', model_provider: 'mock' };
const lines = async (file: string) => (await readFile(file, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
const create = (extra: Partial<RolloutWriterOptions> = {}) => RolloutWriter.create({ home: home.home, meta, threadId: THREAD, clock: steppingClock(), ...extra });

describe('RolloutWriter', () => {
  it('creates the dated file with a paginated session_meta header', async () => {
    const writer = await create();
    await writer.close();
    expect(writer.path).toBe(`${home.home}/sessions/2026/11/30/rollout-2026-11-30T10-00-00-${THREAD}.jsonl`);
    const [header] = await lines(writer.path);
    expect(header).toEqual({
      timestamp: '2026-11-30T10:00:00.001Z',
      ordinal: 0,
      type: 'session_meta',
      payload: { session_id: THREAD, id: THREAD, timestamp: '2026-11-30T10:00:00.000Z', history_mode: 'paginated', ...meta },
    });
  });

  it('writes lines in append order with consecutive ordinals, even when appends are not awaited one by one', async () => {
    const writer = await create();
    await Promise.all(Array.from({ length: 50 }, (_, index) => writer.append(item(userMessage(`m${index}`)))));
    await writer.close();
    const written = await lines(writer.path);
    expect(written.map((line) => line['ordinal'])).toEqual(Array.from({ length: 51 }, (_, index) => index));
    expect(written.slice(1).map((line) => (line['payload'] as { content: { text: string }[] }).content[0]?.text)).toEqual(Array.from({ length: 50 }, (_, index) => `m${index}`));
  });

  it('refuses to queue without bound when appends are not awaited, and then refuses every later line (no gap)', async () => {
    const writer = await create({ maxQueuedBytes: 2000 });
    const big = item(userMessage('x'.repeat(1500)));
    const first = writer.append(big);
    const second = writer.append(big);
    await expect(writer.append(big)).rejects.toMatchObject({ code: 'QueueFull' });
    await Promise.all([first, second]);
    await expect(writer.append(big)).rejects.toMatchObject({ code: 'WriterClosed', cause: { code: 'QueueFull' } });
    await writer.flush();
    await writer.close();
    expect(await lines(writer.path)).toHaveLength(3); // the header and the two lines accepted
  });

  it('leaves out what the persistence policy does not keep', async () => {
    const writer = await create();
    await writer.append(
      { type: 'event_msg', payload: { type: 'agent_message_delta', delta: 'x' } },
      { type: 'event_msg', payload: { type: 'exec_command_begin', call_id: 'c' } },
      { type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'c', aggregated_output: 'hi' } },
      { type: 'event_msg', payload: { type: 'token_count', info: null } },
      item({ type: 'compaction_trigger' }),
    );
    await writer.close();
    expect((await lines(writer.path)).map((line) => (line['payload'] as { type?: string }).type ?? line['type'])).toEqual(['session_meta', 'token_count']);
  });

  it('keeps tool end events, with bounded output, in extended mode', async () => {
    const writer = await create({ persistence: 'extended' });
    await writer.append({ type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'c', aggregated_output: 'y'.repeat(50_000), stdout: 'y' } });
    await writer.close();
    const end = (await lines(writer.path))[1]?.['payload'] as Record<string, string>;
    expect(end['stdout']).toBe('');
    expect(Buffer.byteLength(end['aggregated_output'] ?? '')).toBeLessThanOrEqual(10_000);
  });

  it('writes nothing of a batch that holds an invalid item', async () => {
    const writer = await create();
    const bad = { type: 'turn_context', payload: { cwd: '/w' } } as never;
    await expect(writer.append(item(userMessage('ok')), bad)).rejects.toMatchObject({ code: 'InvalidItem' });
    await expect(writer.append({ type: 'compacted', payload: { message: 's', window_id: 3 } })).rejects.toMatchObject({ code: 'InvalidItem', message: expect.stringContaining('legacy') as string });
    await writer.close();
    expect(await lines(writer.path)).toHaveLength(1);
  });

  it('refuses a second writer for the same thread, and appends after close', async () => {
    const writer = await create();
    const path = writer.path;
    await expect(RolloutWriter.resume(path, { home: home.home })).rejects.toMatchObject({ code: 'WriterBusy' });
    await writer.close();
    await writer.close();
    await expect(writer.append(item(userMessage('late')))).rejects.toMatchObject({ code: 'WriterClosed' });
    await expect(create()).rejects.toMatchObject({ code: 'AlreadyExists' });
  });

  it('resumes a file: ordinals continue and the thread reconstructs across both sessions', async () => {
    const first = await create();
    await first.append(...userTurn('t1', 'one', assistantMessage('a1')));
    await first.close();
    const second = await RolloutWriter.resume(first.path, { home: home.home, clock: steppingClock(Date.parse('2026-12-01T00:00:00Z')) });
    expect(second.nextOrdinal).toBe(6);
    expect(second.meta.id).toBe(THREAD);
    await second.append(...userTurn('t2', 'two', assistantMessage('a2')));
    await second.close();
    const thread = await loadThread(first.path);
    expect(thread.turns.map((turn) => [turn.turnId, turn.status])).toEqual([['t1', 'completed'], ['t2', 'completed']]);
    expect((await lines(first.path)).map((line) => line['ordinal'])).toEqual(Array.from({ length: 11 }, (_, index) => index));
  });

  it('cuts a torn tail off before appending after a crash', async () => {
    const first = await create();
    await first.append(...userTurn('t1', 'one'));
    await first.close();
    await appendFile(first.path, '{"timestamp":"2026-11-30T10:00:01.000Z","ordinal":5,"type":"response_item","payl');
    const second = await RolloutWriter.resume(first.path, { home: home.home });
    await second.append(...userTurn('t2', 'two'));
    await second.close();
    const read = await readRolloutFile(first.path);
    expect(read.problems).toEqual([]);
    expect(read.lines.map((line) => line.line.ordinal)).toEqual(Array.from({ length: 9 }, (_, index) => index));
  });

  it('completes a whole last line that lost only its newline', async () => {
    const first = await create();
    await first.append(item(userMessage('kept')));
    await first.close();
    const { size } = await stat(first.path);
    await truncate(first.path, size - 1);
    const second = await RolloutWriter.resume(first.path, { home: home.home });
    await second.append(item(assistantMessage('after')));
    await second.close();
    const read = await readRolloutFile(first.path);
    expect(read.problems).toEqual([]);
    expect(read.lines).toHaveLength(3);
  });

  it('takes over the lock of a writer whose process died', async () => {
    const dead: LockOwner = { pid: 999_999, hostname: 'h', isAlive: () => false };
    const crashed = await create({ lockOwner: dead });
    await crashed.append(item(userMessage('before the crash')));
    const resumed = await RolloutWriter.resume(crashed.path, { home: home.home, lockOwner: { pid: 1, hostname: 'h', isAlive: (pid) => pid === 1 } });
    await resumed.append(item(assistantMessage('after')));
    await resumed.close();
    expect((await lines(crashed.path)).map((line) => line['ordinal'])).toEqual([0, 1, 2]);
  });

  it('calls onBoundary after the header and each completed turn, and keeps its errors out of append', async () => {
    const seen: (string | undefined)[] = [];
    const errors: unknown[] = [];
    const writer = await create({
      onBoundary: (w) => {
        seen.push(w.firstUserMessage);
        if (seen.length === 3) throw new Error('index down');
      },
      onBoundaryError: (error) => errors.push(error),
    });
    await writer.append(...userTurn('t1', 'title text', functionCall('c')));
    await writer.append(item(userMessage('second')), taskComplete('t2'));
    await writer.close();
    expect(seen).toEqual([undefined, 'title text', 'title text']);
    expect(errors).toHaveLength(1);
  });

  it("answers written() once a turn's end is written and told to onBoundary, without waiting for its fsync", async () => {
    // The file's fsyncs wait for a gate this test opens; everything else is the real file.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let gated = false;
    let syncs = 0;
    const openFile: OpenFile = async (filePath, flags) =>
      interceptedHandle(await open(filePath, flags), (property, method) =>
        property === 'datasync'
          ? async () => {
              syncs += 1;
              if (gated) await gate;
              return method();
            }
          : undefined,
      );
    const boundaries: number[] = [];
    const writer = await create({ openFile, onBoundary: (w) => void boundaries.push(w.nextOrdinal) });
    gated = true;
    let appended = false;
    const ending = writer.append(...userTurn('t1', 'hello'), taskComplete('t1')).then(() => (appended = true));
    await writer.written();
    expect((await lines(writer.path)).at(-1)?.['payload']).toMatchObject({ type: 'task_complete', turn_id: 't1' });
    expect(boundaries.at(-1)).toBe(writer.nextOrdinal);
    expect(syncs).toBe(2); // the header's, and the turn's end, still held
    expect(appended).toBe(false); // the append that ends a turn resolves only once it is durable
    openGate();
    await ending;
    expect(appended).toBe(true);
    await writer.flush(); // nothing was written since the turn's sync: no second fsync
    expect(syncs).toBe(2);
    await writer.close();
  });

  it('refuses a file name that is not a rollout and a file without a header', async () => {
    await expect(RolloutWriter.resume(`${home.home}/notes.jsonl`, { home: home.home })).rejects.toBeInstanceOf(RolloutError);
  });
});
