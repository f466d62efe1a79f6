import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asLines, item, sessionMeta, temporaryHome, turnContext, userMessage, uuidV7, writeJsonl } from '../../test/support/builders.js';
import { RolloutError } from '../rollout-error.js';
import { READ_CHUNK_BYTES } from './line-scanner.js';
import { readRolloutFile } from './rollout-reader.js';

const ID = uuidV7(1);
let home: Awaited<ReturnType<typeof temporaryHome>>;
let file: string;
beforeEach(async () => {
  home = await temporaryHome();
  file = path.join(home.home, 'rollout.jsonl');
});
afterEach(() => home.dispose());

const header = { timestamp: 't', ordinal: 0, type: 'session_meta', payload: sessionMeta(ID) };
const body = asLines([turnContext('t1'), item(userMessage('hello'))], 1);

describe('readRolloutFile', () => {
  it('reads every line in order with its position', async () => {
    await writeJsonl(file, [header, ...body]);
    const read = await readRolloutFile(file);
    expect(read.problems).toEqual([]);
    expect(read.lines.map((line) => [line.lineNumber, line.line.type])).toEqual([[1, 'session_meta'], [2, 'turn_context'], [3, 'response_item']]);
    expect(read.lines[1]?.byteOffset).toBe(Buffer.byteLength(`${JSON.stringify(header)}\n`));
    expect(read.validEnd).toBe(read.lines[2]?.byteEnd);
  });

  it('tolerates a torn last line and reports it as such', async () => {
    await writeJsonl(file, [header, ...body, '{"timestamp":"t","ordinal":3,"type":"response_it'], false);
    const read = await readRolloutFile(file, { strict: true });
    expect(read.lines).toHaveLength(3);
    expect(read.problems).toEqual([expect.objectContaining({ kind: 'torn-tail', lineNumber: 4 })]);
    expect(read.validEnd).toBe(read.lines[2]?.byteEnd);
  });

  it('accepts a whole last line that only lost its newline', async () => {
    await writeJsonl(file, [header, ...body], false);
    const read = await readRolloutFile(file);
    expect(read.lines).toHaveLength(3);
    expect(read.problems).toEqual([]);
    expect(read.unterminatedTail).toBe(true);
  });

  it('reports a corrupt line in the middle with its line number and reads on', async () => {
    await writeJsonl(file, [header, '{"timestamp":"t","ordinal":1,"type":"turn_con', ...body]);
    const read = await readRolloutFile(file);
    expect(read.problems).toEqual([expect.objectContaining({ kind: 'corrupt-line', lineNumber: 2, path: file })]);
    expect(read.lines.map((line) => line.lineNumber)).toEqual([1, 3, 4]);
  });

  it('throws CorruptLine with the line number when strict', async () => {
    await writeJsonl(file, [header, 'not json', ...body]);
    await expect(readRolloutFile(file, { strict: true })).rejects.toMatchObject({ code: 'CorruptLine', lineNumber: 2 });
    await expect(readRolloutFile(file, { strict: true })).rejects.toBeInstanceOf(RolloutError);
  });

  it('keeps a JSON line that does not match its schema and reports it', async () => {
    const bad = { timestamp: 't', ordinal: 1, type: 'turn_context', payload: { cwd: '/w' } };
    await writeJsonl(file, [header, bad]);
    const read = await readRolloutFile(file);
    expect(read.invalidLines).toEqual([expect.objectContaining({ kind: 'invalid', lineNumber: 2, value: bad })]);
    expect(read.problems[0]).toMatchObject({ kind: 'invalid-line', lineNumber: 2 });
    expect(read.problems[0]?.message).toContain('payload.model');
  });

  it('keeps unknown line types and unknown fields whole', async () => {
    const future = { timestamp: 't', ordinal: 1, type: 'spine_transition', payload: { a: [1, 2] }, newTopLevel: true };
    await writeJsonl(file, [header, future]);
    const read = await readRolloutFile(file);
    expect(read.lines[1]?.line).toEqual(future);
  });

  it('skips blank lines and reads CRLF line ends', async () => {
    await writeJsonl(file, [`${JSON.stringify(header)}\r`, '', ...body.map((line) => `${JSON.stringify(line)}\r`)]);
    const read = await readRolloutFile(file);
    expect(read.problems).toEqual([]);
    expect(read.lines.map((line) => line.lineNumber)).toEqual([1, 3, 4]);
  });

  it('reads lines longer than one read chunk', async () => {
    const long = { timestamp: 't', ordinal: 1, type: 'response_item', payload: userMessage('x'.repeat(READ_CHUNK_BYTES * 2 + 17)) };
    await writeJsonl(file, [header, long, ...body]);
    const read = await readRolloutFile(file);
    expect(read.problems).toEqual([]);
    expect(read.lines[1]?.line).toEqual(long);
    expect(read.lines).toHaveLength(4);
  });

  it('skips and reports a line over the limit', async () => {
    const long = { timestamp: 't', ordinal: 1, type: 'response_item', payload: userMessage('x'.repeat(5000)) };
    await writeJsonl(file, [header, long, ...body]);
    const read = await readRolloutFile(file, { maxLineBytes: 1000 });
    expect(read.problems).toEqual([expect.objectContaining({ kind: 'line-too-long', lineNumber: 2 })]);
    expect(read.lines.map((line) => line.lineNumber)).toEqual([1, 3, 4]);
    await expect(readRolloutFile(file, { maxLineBytes: 1000, strict: true })).rejects.toMatchObject({ code: 'LineTooLong' });
  });

  it('stops at endByteOffset', async () => {
    await writeJsonl(file, [header, ...body]);
    const whole = await readRolloutFile(file);
    const part = await readRolloutFile(file, { endByteOffset: whole.lines[1]?.byteEnd ?? 0 });
    expect(part.lines).toHaveLength(2);
    expect(part.problems).toEqual([]);
  });
});
