import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asLines, assistantMessage, extensionState, sessionMeta, temporaryHome, userTurn, uuidV7, writeJsonl } from '../../test/support/builders.js';
import { loadThread } from './load-thread.js';

const PARENT = uuidV7(1);
const CHILD = uuidV7(2);
const GRANDCHILD = uuidV7(3);
let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => {
  home = await temporaryHome();
  await mkdir(path.join(home.home, 'x'));
});
afterEach(() => home.dispose());

const texts = (history: readonly unknown[]) => history.map((entry) => (entry as { content?: { text?: string }[] }).content?.[0]?.text);

describe('loadThread', () => {
  it('replays the inherited part of a parent for a fork that references it (history_base)', async () => {
    const parentPath = path.join(home.home, 'x', 'parent.jsonl');
    const parentLines = asLines([{ type: 'session_meta', payload: sessionMeta(PARENT) }, ...userTurn('t1', 'one', assistantMessage('a1')), ...userTurn('t2', 'two', assistantMessage('a2'))]);
    await writeJsonl(parentPath, parentLines);
    const cut = Buffer.byteLength(parentLines.slice(0, 6).map((line) => `${JSON.stringify(line)}\n`).join(''));
    const childPath = path.join(home.home, 'x', 'child.jsonl');
    const childMeta = sessionMeta(CHILD, { forked_from_id: PARENT, forked_from_ordinal_exclusive: 6, history_base: { thread_id: PARENT, end_ordinal_exclusive: 6, end_byte_offset: cut } });
    await writeJsonl(childPath, asLines([{ type: 'session_meta', payload: childMeta }, ...userTurn('t3', 'three', assistantMessage('a3'))], 6));
    const paths: Record<string, string> = { [PARENT]: parentPath, [CHILD]: childPath };
    const thread = await loadThread(childPath, { resolveThreadPath: (id) => Promise.resolve(paths[id]) });
    expect(thread.meta.id).toBe(CHILD);
    expect(texts(thread.history)).toEqual(['one', 'a1', 'three', 'a3']);
    expect(thread.turns.map((turn) => turn.turnId)).toEqual(['t1', 't3']);
    expect(thread.problems).toEqual([]);
  });

  it('follows a chain of forks and stops at the ordinal when there is no byte offset', async () => {
    const parentPath = path.join(home.home, 'x', 'p.jsonl');
    await writeJsonl(parentPath, asLines([{ type: 'session_meta', payload: sessionMeta(PARENT) }, ...userTurn('t1', 'one'), ...userTurn('t2', 'two')]));
    const childPath = path.join(home.home, 'x', 'c.jsonl');
    await writeJsonl(childPath, asLines([{ type: 'session_meta', payload: sessionMeta(CHILD, { history_base: { thread_id: PARENT, end_ordinal_exclusive: 5 } }) }, ...userTurn('t3', 'three')], 5));
    const grandPath = path.join(home.home, 'x', 'g.jsonl');
    await writeJsonl(grandPath, asLines([{ type: 'session_meta', payload: sessionMeta(GRANDCHILD, { history_base: { thread_id: CHILD, end_ordinal_exclusive: 10 } }) }, ...userTurn('t4', 'four')], 10));
    const paths: Record<string, string> = { [PARENT]: parentPath, [CHILD]: childPath, [GRANDCHILD]: grandPath };
    const thread = await loadThread(grandPath, { resolveThreadPath: (id) => Promise.resolve(paths[id]) });
    expect(texts(thread.history)).toEqual(['one', 'three', 'four']);
  });

  it('reports an unreachable parent and replays the fork alone', async () => {
    const childPath = path.join(home.home, 'x', 'c.jsonl');
    await writeJsonl(childPath, asLines([{ type: 'session_meta', payload: sessionMeta(CHILD, { history_base: { thread_id: PARENT, end_ordinal_exclusive: 5 } }) }, ...userTurn('t3', 'three')], 5));
    const thread = await loadThread(childPath);
    expect(texts(thread.history)).toEqual(['three']);
    expect(thread.problems).toEqual([expect.objectContaining({ kind: 'history-base-unavailable', lineNumber: 1 })]);
    const cyclic = await loadThread(childPath, { resolveThreadPath: () => Promise.resolve(childPath) });
    expect(cyclic.problems[0]?.kind).toBe('history-base-unavailable');
  });

  it('refuses a file that does not start with a session_meta line', async () => {
    const file = path.join(home.home, 'x', 'bad.jsonl');
    await writeJsonl(file, asLines(userTurn('t1', 'one')));
    await expect(loadThread(file)).rejects.toMatchObject({ code: 'MissingSessionMeta' });
    expect(await readFile(file, 'utf8')).toContain('task_started');
  });

  it('reports an extension-state line that fails its schema as a problem and replays the others', async () => {
    const file = path.join(home.home, 'x', 'state.jsonl');
    const lines = asLines([
      { type: 'session_meta', payload: sessionMeta(PARENT) },
      extensionState('notes', 'kept', 1),
      { type: 'skein_extension_state', payload: { extension_id: 'notes', key: 'broken' } },
      ...userTurn('t1', 'one'),
    ]);
    await writeJsonl(file, lines);
    const thread = await loadThread(file);
    expect(thread.problems).toEqual([expect.objectContaining({ kind: 'invalid-line', lineNumber: 3, message: expect.stringContaining('skein_extension_state') as string })]);
    expect(thread.extensionState).toEqual([{ extensionId: 'notes', key: 'kept', value: 1 }]);
    expect(thread.turns).toHaveLength(1);
  });
});
