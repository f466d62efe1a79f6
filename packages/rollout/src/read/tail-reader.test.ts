import path from 'node:path';
import { stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asLines, assistantMessage, item, rolledBack, sessionMeta, temporaryHome, userTurn, uuidV7, writeJsonl } from '../../test/support/builders.js';
import { readRolloutHead, readRolloutTail } from './tail-reader.js';

const ID = uuidV7(1);
let home: Awaited<ReturnType<typeof temporaryHome>>;
let file: string;
beforeEach(async () => {
  home = await temporaryHome();
  file = path.join(home.home, 'rollout.jsonl');
});
afterEach(() => home.dispose());

const header = { type: 'session_meta' as const, payload: sessionMeta(ID, { base_instructions: { text: 'b'.repeat(100_000) } }) };

describe('readRolloutTail', () => {
  it('finds the header, the latest turn context and the newest ordinal without reading the whole file', async () => {
    const turns = Array.from({ length: 400 }, (_, index) => userTurn(`turn-${index}`, `question ${index}`, assistantMessage('a'.repeat(500)))).flat();
    await writeJsonl(file, asLines([header, ...turns]));
    const tail = await readRolloutTail(file);
    const { size } = await stat(file);
    expect(tail.meta?.id).toBe(ID);
    expect(tail.lastTurnContext?.turn_id).toBe('turn-399');
    expect(tail.lastOrdinal).toBe(turns.length);
    expect(tail.fileSize).toBe(size);
    expect(tail.bytesScanned).toBeLessThan(size / 10);
  });

  it('skips a torn last line', async () => {
    await writeJsonl(file, [...asLines([header, ...userTurn('t1', 'q')]), '{"timestamp":"t","ord'], false);
    const tail = await readRolloutTail(file);
    expect(tail.lastOrdinal).toBe(4);
    expect(tail.lastTurnContext?.turn_id).toBe('t1');
  });

  it('passes over the turn contexts of rolled-back turns', async () => {
    await writeJsonl(file, asLines([header, ...userTurn('t1', 'one'), ...userTurn('t2', 'two'), ...userTurn('t3', 'three'), rolledBack(2)]));
    expect((await readRolloutTail(file)).lastTurnContext?.turn_id).toBe('t1');
  });

  it('reports no turn context for a thread without one, having read back to the header', async () => {
    await writeJsonl(file, asLines([header, item(assistantMessage('hi'))]));
    const tail = await readRolloutTail(file);
    expect(tail.lastTurnContext).toBeUndefined();
    expect(tail.bytesScanned).toBe(tail.fileSize);
  });

  it('reads a header longer than one chunk, and nothing for a file that does not start with one', async () => {
    await writeJsonl(file, asLines([header]));
    expect((await readRolloutHead(file))?.id).toBe(ID);
    await writeJsonl(file, asLines([item(assistantMessage('hi'))]));
    expect(await readRolloutHead(file)).toBeUndefined();
  });
});
