// The model request over node:http / node:https. The global fetch would do the same, but its first
// call loads Node's bundled undici (~20 ms of compiling), which every `exec` paid on the way to its
// first request (issue #18); node:http is most of the way loaded when a process starts.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';

/** The parts of a response the model client reads; the global fetch's `Response` has them too. */
export interface ModelHttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
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

/** {@link ModelHttpPost} over node:http(s), with the default agents (keep-alive between requests). */
export const httpPost: ModelHttpPost = async (url, request) => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported URL scheme ${url.protocol} (use http: or https:)`);
  const { request: send } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: request.method,
        headers: { ...request.headers, 'content-length': String(typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.byteLength) },
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      },
      (response) => resolve(modelHttpResponse(response)),
    );
    outgoing.once('error', reject);
    outgoing.end(request.body);
  });
};

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
