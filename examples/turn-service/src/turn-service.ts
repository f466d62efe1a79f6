// An HTTP service over Skein's host API: `POST /turns {prompt, threadId?}` runs one turn (on a new
// thread, or on a stored one) and streams its events as server-sent events, one per v2
// notification, ending with `result`. `GET /threads` lists stored threads. Every request needs the
// bearer token; a browser's request (it carries `Origin`) is refused, so a web page cannot drive the
// agent on this machine. A client that goes away interrupts its turn.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HostError, type SkeinRuntime, type TurnEvent } from '@skein/core/host';
import * as z from 'zod';
import { OpenThreads } from './open-threads.js';

/** The largest request body read; a prompt is text, not a file upload. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** How much of a too-large body is read (and dropped) before the connection is cut. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

const TurnRequest = z.strictObject({
  prompt: z.string().min(1, 'prompt must not be empty'),
  threadId: z.string().optional(),
});

const ListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), cursor: z.string().optional() });

/** Options of {@link createTurnService}. */
export interface TurnServiceOptions {
  readonly runtime: SkeinRuntime;
  /** The bearer token every request must carry. */
  readonly token: string;
}

/** A refusal with its HTTP status; the body is `{ error: { code, message } }`. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const HOST_ERROR_STATUS: Readonly<Record<string, number>> = {
  InvalidThreadId: 400,
  InvalidSettings: 400,
  ThreadNotFound: 404,
  TurnNotFound: 404,
  TurnRunning: 409,
  AlreadyOpen: 409,
  ThreadBusy: 409,
};

export function createTurnService(options: TurnServiceOptions): Server {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const authorized = (header: string | undefined): boolean => {
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const threads = new OpenThreads(options.runtime);
  return createServer((request, response) => {
    void (async () => {
      if (request.headers.origin !== undefined) throw new Refusal(403, 'BrowserRefused', 'requests from a browser (with an Origin header) are refused');
      if (!authorized(request.headers.authorization)) throw new Refusal(401, 'Unauthorized', 'send Authorization: Bearer <token>');
      const url = new URL(request.url ?? '/', 'http://service');
      if (request.method === 'POST' && url.pathname === '/turns') return runTurn(threads, request, response);
      if (request.method === 'GET' && url.pathname === '/threads') return listThreads(options.runtime, url, response);
      throw new Refusal(404, 'NotFound', `no route ${request.method ?? ''} ${url.pathname}; use POST /turns or GET /threads`);
    })().catch((error: unknown) => refuse(response, error));
  });
}

async function runTurn(threads: OpenThreads, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = TurnRequest.safeParse(await readJson(request));
  if (!body.success) throw new Refusal(400, 'InvalidRequest', z.prettifyError(body.error));
  const { thread, release } = await threads.lease(body.data.threadId);
  try {
    const run = thread.run(body.data.prompt);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    // The client went away before the turn ended: nobody reads the answer, so stop spending on it.
    response.once('close', () => {
      if (!response.writableFinished) run.interrupt();
    });
    send(response, 'thread', { threadId: thread.id, turnId: run.turnId });
    for await (const event of run) send(response, event.method, event.params);
    send(response, 'result', await run.result);
  } finally {
    // Before the stream ends, so a client that saw it end finds the thread back in its file.
    await release();
  }
  response.end();
}

async function listThreads(runtime: SkeinRuntime, url: URL, response: ServerResponse): Promise<void> {
  const query = ListQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) throw new Refusal(400, 'InvalidRequest', z.prettifyError(query.error));
  const page = await runtime.listThreads({ limit: query.data.limit, ...(query.data.cursor === undefined ? {} : { cursor: query.data.cursor }) });
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
}

function send(response: ServerResponse, event: TurnEvent['method'] | 'thread' | 'result' | 'failure', data: unknown): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Past the limit the rest is read and dropped, so the client is still reading when the 413
    // comes; past a far larger bound the upload is cut off.
    if (size > DRAIN_LIMIT_BYTES) request.destroy();
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) throw new Refusal(413, 'TooLarge', `the body is over ${MAX_BODY_BYTES} bytes`);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new Refusal(400, 'InvalidJson', 'the body must be a JSON object: {"prompt": "...", "threadId"?: "..."}');
  }
}

function refuse(response: ServerResponse, error: unknown): void {
  const refusal =
    error instanceof Refusal
      ? error
      : error instanceof HostError
        ? new Refusal(HOST_ERROR_STATUS[error.code] ?? 500, error.code, error.message)
        : new Refusal(500, 'Internal', error instanceof Error ? error.message : String(error));
  // A stream already under way ends with a `failure` event (not `error`, which is the turn's own
  // notification) instead of a status it can no longer send.
  if (response.headersSent) {
    if (!response.writableEnded) {
      send(response, 'failure', { code: refusal.code, message: refusal.message });
      response.end();
    }
    return;
  }
  response.writeHead(refusal.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
}
