// Writes a connection makes in one turn of the event loop go out together: the socket is corked at
// the first and uncorked when the loop reaches its check phase, so a burst of notifications costs
// one `writev` instead of one system call per frame. Order is the socket's own: writes queue in turn.
import type { Writable } from 'node:stream';

/**
 * Returns `hold`, to call before each write on `socket`: the writes from the first `hold` until the
 * event loop has run the current turn's work (I/O callbacks, promise jobs) are flushed as one.
 *
 * @example
 * const hold = coalesceWrites(socket);
 * hold();
 * ws.send(text); // written with the other frames of this turn
 */
export function coalesceWrites(socket: Writable): () => void {
  let corked = false;
  const flush = (): void => {
    corked = false;
    // A destroyed socket drops what it held (its write callbacks get the error); uncork is then a no-op.
    socket.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    socket.cork();
    setImmediate(flush);
  };
}
