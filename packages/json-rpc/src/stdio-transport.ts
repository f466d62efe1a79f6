// A JSON-RPC service (the exec-server, the app-server) over stdio: one JSON-RPC message per line each
// way. The session ends when input does, after the requests already sent have been answered, or
// when output fails (the client closed its end: EPIPE), with nobody left to answer.
import type { Readable, Writable } from 'node:stream';
import type { JsonRpcService, JsonRpcServiceConnection } from './json-rpc-service.js';
import { LineSplitter } from './line-splitter.js';
import { OutboundBacklog } from './outbound-backlog.js';

/** Serves one client on `input`/`output`; resolves once input has ended and the client is torn down. */
export async function serveStdio<C extends JsonRpcServiceConnection>(server: JsonRpcService<C>, input: Readable, output: Writable): Promise<void> {
  const backlog = new OutboundBacklog();
  // No `disconnect`: the client owns the pipe, so a slow one is waited for (or shed) by the service.
  const connection = server.connect({
    send: (text) => {
      if (output.writable) output.write(`${text}\n`, backlog.add(Buffer.byteLength(text) + 1));
    },
    get bufferedBytes() {
      return backlog.waitingBytes;
    },
  });
  const splitter = new LineSplitter(server.maxRequestBytes, {
    line: (text) => connection.receive(text),
    oversized: (head, bytes) => connection.receiveOversized(head, bytes),
  });
  let hungUp = false;
  await new Promise<void>((resolve) => {
    input.on('data', (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    input.once('end', resolve);
    input.once('close', resolve);
    input.once('error', () => resolve());
    // Unhandled, a stream's error event would end the process with a stack trace.
    output.on('error', () => {
      hungUp = true;
      input.destroy();
      resolve();
    });
  });
  // Input ending is the client's goodbye, not a hang-up: what it already asked for is still answered.
  // After a hang-up nobody can read an answer, so work in flight is stopped, not awaited.
  if (!hungUp) await connection.drain();
  await server.disconnect(connection);
}
