// coalesceWrites: what a connection writes in one turn of the event loop reaches the socket as one
// write, in order, and the next turn's writes as the next.
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from './write-coalescing.js';

/** A socket stand-in that records each write it is asked to make, as the chunks it holds. */
function recordingSocket(): { readonly socket: Writable; readonly writes: string[][] } {
  const writes: string[][] = [];
  const socket = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { socket, writes };
}

describe('coalesceWrites', () => {
  it('writes one turn of the event loop as one write, in order, and calls back each write', async () => {
    const { socket, writes } = recordingSocket();
    const hold = coalesceWrites(socket);
    const written: string[] = [];
    for (const text of ['a', 'b', 'c']) {
      hold();
      socket.write(text, () => written.push(text));
    }
    await Promise.resolve();
    hold();
    socket.write('d', () => written.push('d'));
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual([['a', 'b', 'c', 'd']]);
    hold();
    socket.write('e');
    await nextTurn();
    expect(writes).toEqual([['a', 'b', 'c', 'd'], ['e']]);
    expect(written).toEqual(['a', 'b', 'c', 'd']);
  });

  it('lets a socket destroyed while corked drop what it held', async () => {
    const { socket, writes } = recordingSocket();
    socket.on('error', () => undefined);
    const hold = coalesceWrites(socket);
    const failures: unknown[] = [];
    hold();
    socket.write('lost', (error) => failures.push(error));
    socket.destroy();
    await nextTurn();
    expect(writes).toEqual([]);
    expect(failures).toHaveLength(1);
  });
});
