// How the mock answers over HTTP: request headers read case-insensitively, its own errors in
// OpenAI's error body shape, and stream chunks written with backpressure and client loss noticed.
import type { IncomingMessage, ServerResponse } from 'node:http';

export function lowerCasedHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The mock's own errors use OpenAI's error body shape, so clients surface the message. */
export function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message, type: 'mock_server_error', param: null, code } }));
}

/** Resolves once the chunk is handed to the socket, or with `false` if the client is gone. */
export function writeChunk(response: ServerResponse, chunk: string): Promise<boolean> {
  return new Promise((resolve) => {
    if (response.destroyed) {
      resolve(false);
      return;
    }
    const onClose = (): void => resolve(false);
    response.once('close', onClose);
    response.write(chunk, (error) => {
      response.off('close', onClose);
      resolve(error === undefined || error === null);
    });
  });
}
