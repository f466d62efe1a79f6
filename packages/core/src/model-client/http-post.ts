// The model request over node:http / node:https. The global fetch would do the same, but its first
// call loads Node's bundled undici (~20 ms of compiling), which every `exec` paid on the way to its
// first request (issue #18); node:http is most of the way loaded when a process starts.
import type * as NodeHttp from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type * as NodeHttps from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { incomingBodyReader, type ModelHttpBodyReader } from './body-reader.js';

/** The parts of a response the model client reads; the global fetch's `Response` has them too. */
export interface ModelHttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /** The body chunk by chunk without web streams, when the transport offers it (a fetch `Response` has only `body`). */
  readonly bodyReader?: () => ModelHttpBodyReader;
  text(): Promise<string>;
}

/** How much of a response body `text()` reads. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** What the model client sends. */
export interface ModelHttpRequest {
  readonly method: 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly signal?: AbortSignal;
}

/** Sends one request; a network failure rejects, any HTTP status resolves. */
export type ModelHttpPost = (url: URL, request: ModelHttpRequest) => Promise<ModelHttpResponse>;

// Imported on first use (https brings TLS, which a plain-http provider never needs) and kept: a
// dynamic import is a module-graph lookup, too dear to pay on every request.
let nodeHttp: Promise<typeof NodeHttp> | undefined;
let nodeHttps: Promise<typeof NodeHttps> | undefined;

/** {@link ModelHttpPost} over node:http(s), with the default agents (keep-alive between requests). */
export const httpPost: ModelHttpPost = async (url, request) => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported URL scheme ${url.protocol} (use http: or https:)`);
  const { request: send } = url.protocol === 'https:' ? await (nodeHttps ??= import('node:https')) : await (nodeHttp ??= import('node:http'));
  const { signal } = request;
  if (signal?.aborted === true) throw abortError(signal);
  return new Promise((resolve, reject) => {
    let incoming: IncomingMessage | undefined;
    const outgoing = send(
      url,
      {
        method: request.method,
        headers: { ...request.headers, 'content-length': String(typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.byteLength) },
      },
      (response) => {
        incoming = response;
        resolve(modelHttpResponse(response));
      },
    );
    outgoing.once('error', reject);
    // Watched here, not handed to node:http, which would tie the signal to the socket as well: a
    // kept-alive socket back in the agent's pool would then be destroyed by a later abort of the
    // turn, under another request or with nobody to handle its error. The response goes first, so
    // its socket is closed before a response already all here could hand it back to the pool.
    if (signal !== undefined) {
      const abort = (): void => {
        const error = abortError(signal);
        incoming?.destroy(error);
        outgoing.destroy(error);
      };
      signal.addEventListener('abort', abort, { once: true });
      outgoing.once('close', () => signal.removeEventListener('abort', abort));
    }
    outgoing.end(request.body);
  });
};

/** What node:http rejects with for an aborted request's signal. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

function modelHttpResponse(response: IncomingMessage): ModelHttpResponse {
  const status = response.statusCode ?? 0;
  let body: ReadableStream<Uint8Array> | undefined;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: response.statusMessage ?? '',
    headers: { get: (name) => headerValue(response.headers, name) },
    // Made on first use: a web stream starts pulling from the socket, which `text()` reads instead.
    get body() {
      body ??= Readable.toWeb(response) as ReadableStream<Uint8Array>;
      return body;
    },
    bodyReader: () => incomingBodyReader(response),
    // An error body: the first MAX_ERROR_BODY_BYTES are plenty to say what went wrong.
    async text() {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= MAX_ERROR_BODY_BYTES) {
          response.destroy();
          break;
        }
      }
      return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8');
    },
  };
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
