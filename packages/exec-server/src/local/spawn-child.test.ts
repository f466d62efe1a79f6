// The terminal's last output when the reader falls behind: node-pty destroys the socket 200 ms after
// the child exits, and a process too busy to read by then used to lose what the command printed last.
import type * as NodePty from '@lydell/node-pty';
import { describe, expect, it, vi } from 'vitest';
import { startPtyChild } from './spawn-child.js';

const spawned: NodePty.IPty[] = [];
vi.mock('@lydell/node-pty', async (importOriginal) => {
  const actual = await importOriginal<typeof NodePty>();
  return { ...actual, spawn: (...args: Parameters<typeof actual.spawn>) => spawned[spawned.push(actual.spawn(...args)) - 1]! };
});

/** Stops reading the terminal, as a busy event loop would: its output stays in the kernel (node-pty 1.1 internals). */
function stopReading(pty: NodePty.IPty): void {
  const socket = (pty as unknown as { _socket: { _read: () => void; _handle: { readStop(): void } } })._socket;
  socket._read = () => undefined;
  socket._handle.readStop();
}

describe('startPtyChild', () => {
  it('keeps what a command printed before exiting when nothing was read by the time node-pty gives up', async () => {
    const chunks: Uint8Array[] = [];
    let exitCode: number | undefined;
    await new Promise<void>((resolve, reject) => {
      startPtyChild(
        // The pause lets the test stop reading before anything is printed.
        { file: '/bin/sh', args: ['-c', 'sleep 0.2; printf "first\\nlast line\\n"'], cwd: '/', env: { PATH: '/usr/bin:/bin' }, tty: true, pipeStdin: true },
        { output: (_stream, bytes) => chunks.push(bytes), exit: (code) => (exitCode = code), closed: resolve },
      ).then(() => stopReading(spawned.at(-1)!), reject);
    });
    expect(exitCode).toBe(0);
    expect(Buffer.concat(chunks).toString()).toBe('first\r\nlast line\r\n');
  });

  // Once the terminal's last slave descriptor is closed the master reads end-of-file, and node-pty's
  // socket destroyed itself, closing the master: the kernel hung the terminal up, and a command still
  // running (or, racing, one closing its output on the way out, as `cat` does) died of SIGHUP (129).
  it('keeps the terminal until the command exits, though the command closed its side first', async () => {
    const exits: [number, NodeJS.Signals | null][] = [];
    const chunks: Uint8Array[] = [];
    await new Promise<void>((resolve, reject) => {
      startPtyChild(
        { file: '/bin/sh', args: ['-c', 'echo before; exec 0<&- 1>&- 2>&-; sleep 0.3; exit 3'], cwd: '/', env: { PATH: '/usr/bin:/bin' }, tty: true, pipeStdin: true },
        { output: (_stream, bytes) => chunks.push(bytes), exit: (code, signal) => exits.push([code, signal]), closed: resolve },
      ).catch(reject);
    });
    expect(exits).toEqual([[3, null]]);
    expect(Buffer.concat(chunks).toString()).toBe('before\r\n');
  });
});
