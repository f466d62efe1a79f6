import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantMessage, item, rolledBack, steppingClock, temporaryHome, threadId, userMessage, userTurn } from '../test/support/builders.js';
import { forkRollout } from './fork.js';
import { loadThread } from './reconstruct/load-thread.js';
import { RolloutWriter } from './write/rollout-writer.js';

const SOURCE = threadId(1);
const FORK = threadId(2);
let home: Awaited<ReturnType<typeof temporaryHome>>;
let sourcePath: string;
beforeEach(async () => {
  home = await temporaryHome();
  const writer = await RolloutWriter.create({ home: home.home, threadId: SOURCE, clock: steppingClock(), meta: { cwd: '/workspace', source: 'exec', base_instructions: { text: 'base' }, custom_field: 7 } });
  await writer.append(...userTurn('t1', 'one', assistantMessage('a1')));
  await writer.append(...userTurn('t2', 'two', assistantMessage('a2')));
  await writer.append({ type: 'spine_transition', payload: { kept: true } });
  await writer.append(...userTurn('t3', 'three', assistantMessage('a3')));
  await writer.close();
  sourcePath = writer.path;
});
afterEach(() => home.dispose());

const texts = (history: readonly unknown[]) => history.map((entry) => (entry as { content?: { text?: string }[] }).content?.[0]?.text);
const clock = () => steppingClock(Date.parse('2026-12-01T08:00:00.000Z'));

describe('forkRollout', () => {
  it('copies the whole thread under a new header that names its source', async () => {
    const fork = await forkRollout({ home: home.home, sourcePath, threadId: FORK, clock: clock() });
    expect(fork.path).toContain(`sessions/2026/12/01/rollout-2026-12-01T08-00-00-${FORK}.jsonl`);
    expect(fork.meta).toMatchObject({ id: FORK, session_id: FORK, forked_from_id: SOURCE, cwd: '/workspace', custom_field: 7, base_instructions: { text: 'base' } });
    const thread = await loadThread(fork.path);
    expect(texts(thread.history)).toEqual(['one', 'a1', 'two', 'a2', 'three', 'a3']);
    const written = (await readFile(fork.path, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { ordinal: number; type: string });
    expect(written.map((line) => line.ordinal)).toEqual(written.map((_, index) => index));
    expect(written.some((line) => line.type === 'spine_transition')).toBe(true);
  });

  it('stops after a given turn', async () => {
    const fork = await forkRollout({ home: home.home, sourcePath, upTo: { turnId: 't2' }, clock: clock() });
    const thread = await loadThread(fork.path);
    expect(texts(thread.history)).toEqual(['one', 'a1', 'two', 'a2']);
    expect(thread.turns.map((turn) => turn.turnId)).toEqual(['t1', 't2']);
  });

  it('keeps the first n user turns', async () => {
    const fork = await forkRollout({ home: home.home, sourcePath, upTo: { userTurns: 1 }, clock: clock() });
    expect(texts((await loadThread(fork.path)).history)).toEqual(['one', 'a1']);
    const none = await forkRollout({ home: home.home, sourcePath, upTo: { userTurns: 0 }, clock: clock(), threadId: threadId(9) });
    expect((await loadThread(none.path)).history).toEqual([]);
  });

  it('counts only surviving turns of a thread with a rollback', async () => {
    const writer = await RolloutWriter.resume(sourcePath, { home: home.home });
    await writer.append(rolledBack(2), ...userTurn('t4', 'four'));
    await writer.close();
    const fork = await forkRollout({ home: home.home, sourcePath, upTo: { userTurns: 2 }, clock: clock() });
    expect(texts((await loadThread(fork.path)).history)).toEqual(['one', 'a1', 'four']);
    await expect(forkRollout({ home: home.home, sourcePath, upTo: { turnId: 't3' }, clock: clock() })).rejects.toMatchObject({ code: 'TurnNotFound' });
  });

  it('applies header overrides and validates the fork point', async () => {
    const fork = await forkRollout({ home: home.home, sourcePath, meta: { cwd: '/elsewhere', source: 'vscode' }, clock: clock() });
    expect(fork.meta).toMatchObject({ cwd: '/elsewhere', source: 'vscode' });
    await expect(forkRollout({ home: home.home, sourcePath, upTo: { userTurns: -1 }, clock: clock() })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('leaves the source untouched', async () => {
    const before = await readFile(sourcePath, 'utf8');
    await forkRollout({ home: home.home, sourcePath, upTo: { turnId: 't1' }, clock: clock() });
    expect(await readFile(sourcePath, 'utf8')).toBe(before);
    expect(before).toContain(JSON.stringify(item(userMessage('one')).payload));
  });
});
