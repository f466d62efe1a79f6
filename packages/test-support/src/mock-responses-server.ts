// The mock OpenAI Responses API server on 127.0.0.1: serves scripted responses in order, captures
// every request, checks tool call pairing on each, and reports everything that went wrong on verify()
// and, so that no test can forget to ask, when it closes — except what the test declared it expects.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { CapturedRequest } from './captured-request.js';
import { conversationKey } from './internal/conversation-key.js';
import { readBoundedBody } from './internal/read-bounded-body.js';
import { lowerCasedHeaders, sendError } from './internal/http-replies.js';
import { renderSse } from './internal/render-sse.js';
import { writeSseStream } from './internal/write-sse-stream.js';
import { StreamCut } from './mock-event.js';
import { MockIdAllocator } from './mock-id-allocator.js';
import type { MockProblem, MockProblemKind } from './mock-problem.js';
import { MockServerError } from './mock-server-error.js';
import type { ResponsesRequestBody } from './request-body.js';
import { describeRequestMismatch } from './request-matcher.js';
import type { ScriptedResponse, SseResponse } from './scripted-response.js';
import { checkToolCallInvariants } from './tool-call-invariants.js';

/**
 * The largest request body the server accepts (32 MiB), far above any real request; a larger one
 * is answered 413 and recorded as `body-too-large`.
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The one route the server answers; everything else is a 404 and a recorded problem. */
export const RESPONSES_PATH = '/v1/responses';

/** Options of `startMockResponsesServer`. */
export interface MockResponsesServerOptions {
  /** Responses to serve, in order; `expect()` appends more. */
  readonly responses?: readonly ScriptedResponse[];
  /** Request body limit in bytes; default `DEFAULT_MAX_BODY_BYTES`. */
  readonly maxBodyBytes?: number;
  /** Problems this test expects, each with why; `verify()` and `close()` leave them out. */
  readonly tolerate?: readonly ToleratedProblem[];
  /** Called with each request, refused ones too, once its answer has ended, and how long the server held it. */
  readonly onAnswered?: (request: CapturedRequest, span: AnswerSpan) => void;
  /**
   * `false` for a long load (a benchmark's thousands of turns): answered requests are not kept, so
   * the server's memory stays flat; `requests` stays empty and `answerSpan` answers `undefined`, and
   * `onAnswered` is how to see them. Checks and problems work as usual. Default `true`.
   */
  readonly keepRequests?: boolean;
}

/** When the server received a request and finished answering it, on this thread's `performance.now()` clock. */
export interface AnswerSpan {
  readonly receivedAtMs: number;
  readonly answeredAtMs: number;
}

/** A kind of problem a test provokes or accepts on purpose, and the reason it does. */
export interface ToleratedProblem {
  readonly kind: MockProblemKind;
  /** Why the test expects it, as a sentence a reader of the test understands. */
  readonly reason: string;
}

/** A running mock Responses API server. Close it (or `await using` it) when the test ends. */
export interface MockResponsesServer extends AsyncDisposable {
  /** Base URL to configure as the provider's `base_url`: `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** Every request received, in arrival order, including refused ones. */
  readonly requests: readonly CapturedRequest[];
  /** Problems recorded so far (without the unconsumed responses `verify()` adds). */
  readonly problems: readonly MockProblem[];
  /**
   * How long the server held request `requestIndex`: from its arrival to the end of its answer, so a
   * benchmark can take the model's own time (a late timer included) out of a turn's. `undefined`
   * while the answer is still being sent, or for an index never received.
   */
  answerSpan(requestIndex: number): AnswerSpan | undefined;
  /** How many scripted responses are still waiting for a request. */
  readonly pendingResponses: number;
  /** Appends responses to the script: each is served to exactly one Responses request, in order. */
  expect(responses: readonly ScriptedResponse[]): void;
  /**
   * Declares that this test expects problems of `kind` (it sends a bad request on purpose, say, or
   * may leave a scripted response unused), and why; `verify()` and `close()` then leave them out.
   */
  tolerate(kind: MockProblemKind, reason: string): void;
  /**
   * Throws a `MockServerError` (code `VerificationFailed`) listing every problem not tolerated:
   * unexpected or unknown requests, matcher mismatches, invariant violations, refused bodies,
   * unconsumed responses.
   */
  verify(): void;
  /**
   * Stops listening and drops open connections, then verifies: rejects with the `MockServerError`
   * `verify()` would throw, so a test that never calls `verify()` still fails on what went wrong.
   * Safe to call more than once (every call answers the same).
   */
  close(): Promise<void>;
}

/**
 * Starts a mock Responses API server on an ephemeral loopback port.
 * @example
 * await using server = await startMockResponsesServer({ responses: [sse(assistantMessage('hi'), completed())] });
 * // … point the client at server.url and run it; leaving the block closes and verifies it.
 */
export async function startMockResponsesServer(options: MockResponsesServerOptions = {}): Promise<MockResponsesServer> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 0) {
    throw new MockServerError('InvalidScript', `maxBodyBytes must be a non-negative integer, not ${maxBodyBytes}`);
  }
  for (const { kind, reason } of options.tolerate ?? []) requireReason(kind, reason);
  const server = createServer();
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error) => reject(new MockServerError('ListenFailed', `the mock server could not listen: ${error.message}`)));
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address !== null && typeof address === 'object') resolve(address.port);
      else reject(new MockServerError('ListenFailed', 'the mock server has no TCP address'));
    });
  });
  const mock = new MockResponsesServerImpl(server, `http://127.0.0.1:${port}/v1`, maxBodyBytes, options);
  for (const { kind, reason } of options.tolerate ?? []) mock.tolerate(kind, reason);
  mock.expect(options.responses ?? []);
  return mock;
}

class MockResponsesServerImpl implements MockResponsesServer {
  readonly url: string;
  readonly #server: Server;
  readonly #maxBodyBytes: number;
  readonly #ids = new MockIdAllocator();
  /** Every response ever scripted; `#consumed` of them have been served. */
  readonly #script: ScriptedResponse[] = [];
  #consumed = 0;
  /** Routed responses served ahead of their place in the script (see `routed`). */
  readonly #servedAhead = new Set<number>();
  readonly #requests: CapturedRequest[] = [];
  /** Requests received, kept or not: the next one's index. */
  #received = 0;
  readonly #keepRequests: boolean;
  readonly #onAnswered: ((request: CapturedRequest, span: AnswerSpan) => void) | undefined;
  /** Answer spans by request index; a request is indexed once its body is read. */
  readonly #spans = new Map<number, AnswerSpan>();
  readonly #problems: MockProblem[] = [];
  /** Per conversation, the call ids the last completed response emitted and the next request must answer. */
  readonly #awaitedOutputs = new Map<string, readonly string[]>();
  /** Kinds of problem the test expects, with why. */
  readonly #tolerated = new Map<MockProblemKind, string>();
  #closing: Promise<void> | undefined;

  constructor(server: Server, url: string, maxBodyBytes: number, options: MockResponsesServerOptions) {
    this.#server = server;
    this.url = url;
    this.#maxBodyBytes = maxBodyBytes;
    this.#keepRequests = options.keepRequests ?? true;
    this.#onAnswered = options.onAnswered;
    server.on('request', (request: IncomingMessage, response: ServerResponse) => this.#onRequest(request, response));
  }

  get requests(): readonly CapturedRequest[] {
    return this.#requests;
  }

  get problems(): readonly MockProblem[] {
    return this.#problems;
  }

  get pendingResponses(): number {
    return this.#script.length - this.#consumed - [...this.#servedAhead].filter((index) => index >= this.#consumed).length;
  }

  expect(responses: readonly ScriptedResponse[]): void {
    if (this.#closing !== undefined) throw new MockServerError('ServerClosed', 'expect() was called after the mock server was closed');
    this.#script.push(...responses);
  }

  tolerate(kind: MockProblemKind, reason: string): void {
    requireReason(kind, reason);
    this.#tolerated.set(kind, reason);
  }

  verify(): void {
    const problems: MockProblem[] = [...this.#problems];
    for (let scriptIndex = this.#consumed; scriptIndex < this.#script.length; scriptIndex += 1) {
      if (this.#servedAhead.has(scriptIndex)) continue;
      const scripted = this.#script[scriptIndex];
      const what = scripted === undefined ? 'a response' : describeScripted(scripted);
      problems.push({ kind: 'unconsumed-response', scriptIndex, message: `responses[${scriptIndex}] (${what}) was never requested` });
    }
    const reported = problems.filter((problem) => !this.#tolerated.has(problem.kind));
    this.#throwIfAny(reported);
  }

  /**
   * The response for `request`: the first unserved routed response whose matcher it satisfies
   * (concurrent conversations, such as sub-agents, ask in no fixed order), else the next in order.
   */
  #nextFor(request: CapturedRequest): number {
    for (let index = this.#consumed; index < this.#script.length; index += 1) {
      const scripted = this.#script[index];
      if (this.#servedAhead.has(index) || scripted?.routed !== true || scripted.match === undefined) continue;
      if (describeRequestMismatch(scripted.match, request) === undefined) return index;
    }
    let next = this.#consumed;
    while (this.#servedAhead.has(next) || this.#script[next]?.routed === true) next += 1;
    return next;
  }

  #throwIfAny(problems: readonly MockProblem[]): void {
    if (problems.length === 0) return;
    const summary =
      `mock Responses server: ${counted(problems.length, 'problem')} ` +
      `(${counted(this.#received, 'request')} received, ${counted(this.#script.length, 'response')} scripted, ${this.#consumed} served)`;
    throw new MockServerError('VerificationFailed', [summary, ...problems.map((problem) => `  - ${problem.message}`)].join('\n'), problems);
  }

  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve, reject) => {
      this.#server.close((error) => (error === undefined ? resolve() : reject(error)));
      // Keep-alive and half-read streams would otherwise hold close() open until they time out.
      this.#server.closeAllConnections();
    }).then(() => this.verify());
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  answerSpan(requestIndex: number): AnswerSpan | undefined {
    return this.#spans.get(requestIndex);
  }

  #onRequest(request: IncomingMessage, response: ServerResponse): void {
    this.#serve(request, response).catch((error: unknown) => {
      // close() drops open connections on purpose; what that breaks is not the client's fault.
      if (this.#closing !== undefined) return;
      const message = error instanceof Error ? error.message : String(error);
      this.#problems.push({ kind: 'server-error', message: `the mock server failed while answering: ${message}` });
      if (!response.headersSent) sendError(response, 500, 'mock_server_error', message);
      else response.destroy();
    });
  }

  /** Captures one request and answers it, noting when it came and when its answer ended. */
  async #serve(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    const body = await readBoundedBody(incoming, this.#maxBodyBytes);
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const request = new CapturedRequest({
      index: this.#received++,
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: lowerCasedHeaders(incoming),
      rawBody: body.bytes.toString('utf8'),
      bodyBytes: body.size,
    });
    if (this.#keepRequests) this.#requests.push(request);
    try {
      await this.#answer(request, body.tooLarge, response);
    } finally {
      const span = { receivedAtMs, answeredAtMs: performance.now() };
      if (this.#keepRequests) this.#spans.set(request.index, span);
      this.#onAnswered?.(request, span);
    }
  }

  async #answer(request: CapturedRequest, tooLarge: boolean, response: ServerResponse): Promise<void> {
    const requestIndex = request.index;
    const where = `requests[${requestIndex}] ${request.method} ${request.path}`;

    if (tooLarge) {
      const message = `${where}: the body has ${request.bodyBytes} bytes, over the limit of ${this.#maxBodyBytes}`;
      this.#problems.push({ kind: 'body-too-large', requestIndex, message });
      sendError(response, 413, 'mock_body_too_large', message);
      return;
    }
    if (request.method !== 'POST' || request.path !== RESPONSES_PATH) {
      const message = `${where}: unknown route; the mock answers only POST ${RESPONSES_PATH}`;
      this.#problems.push({ kind: 'unknown-route', requestIndex, message });
      sendError(response, 404, 'mock_unknown_route', message);
      return;
    }
    const parsed = request.body;
    if (parsed === undefined || parsed.stream !== true) {
      const reason = parsed === undefined ? (request.bodyError ?? 'the body is not a Responses request') : 'the mock serves only `stream: true` requests';
      const message = `${where}: ${reason}`;
      this.#problems.push({ kind: 'invalid-body', requestIndex, message });
      sendError(response, 400, 'mock_invalid_body', message);
      return;
    }

    const conversation = conversationKey(request, parsed);
    this.#checkInvariants(request, parsed, conversation, where);

    const scriptIndex = this.#nextFor(request);
    const scripted = this.#script[scriptIndex];
    if (scripted === undefined) {
      const message = `${where}: unexpected request, no scripted response left (${this.#script.length} scripted, all served)`;
      this.#problems.push({ kind: 'unexpected-request', requestIndex, message });
      sendError(response, 500, 'mock_unexpected_request', message);
      return;
    }
    if (scriptIndex === this.#consumed) this.#consumed += 1;
    else this.#servedAhead.add(scriptIndex);
    while (this.#servedAhead.delete(this.#consumed)) this.#consumed += 1;
    const mismatch = scripted.match === undefined ? undefined : describeRequestMismatch(scripted.match, request);
    if (mismatch !== undefined) {
      const message = `${where} does not match responses[${scriptIndex}]: ${mismatch}`;
      this.#problems.push({ kind: 'matcher-mismatch', requestIndex, scriptIndex, message });
      sendError(response, 500, 'mock_matcher_mismatch', message);
      return;
    }

    switch (scripted.kind) {
      case 'http-error':
        response.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
        response.end(JSON.stringify(scripted.body));
        return;
      case 'sse': {
        let stream = scripted;
        if (scripted.compute !== undefined) {
          try {
            stream = { ...scripted.compute(request), ...(scripted.hold === undefined ? {} : { hold: scripted.hold }), ...(scripted.pace === undefined ? {} : { pace: scripted.pace }) };
          } catch (error) {
            const message = `${where}: responses[${scriptIndex}] could not make its reply: ${(error as Error).message}`;
            this.#problems.push({ kind: 'server-error', requestIndex, scriptIndex, message });
            sendError(response, 500, 'mock_reply_failed', message);
            return;
          }
        }
        await this.#stream(stream, parsed, conversation, response);
        return;
      }
      default: {
        const unreachable: never = scripted;
        throw new Error(`unknown scripted response ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Runs the pairing rules on one request, against the calls the conversation's last response emitted. */
  #checkInvariants(request: CapturedRequest, body: ResponsesRequestBody, conversation: string, where: string): void {
    const emittedCallIds = this.#awaitedOutputs.get(conversation) ?? [];
    this.#awaitedOutputs.delete(conversation);
    for (const violation of checkToolCallInvariants(body.input, { emittedCallIds })) {
      this.#problems.push({ kind: 'invariant-violation', requestIndex: request.index, violation, message: `${where}: ${violation.message}` });
    }
  }

  async #stream(scripted: SseResponse, body: ResponsesRequestBody, conversation: string, response: ServerResponse): Promise<void> {
    const rendered = renderSse(scripted.steps, { resolveId: this.#ids.scope(), model: body.model });
    // Registered before the first byte: the client may send its next request as soon as it reads
    // response.completed, possibly before this handler resumes.
    const awaited = rendered.completed && rendered.emittedCallIds.length > 0 ? rendered.emittedCallIds : undefined;
    if (awaited !== undefined) this.#awaitedOutputs.set(conversation, awaited);

    if (!(await writeSseStream(scripted, rendered, response))) {
      // The client went away mid-stream, so it never saw the calls it would owe outputs for.
      if (awaited !== undefined && this.#awaitedOutputs.get(conversation) === awaited) this.#awaitedOutputs.delete(conversation);
    }
  }
}

/** An opt-out must say why, or it reads like a silenced failure. */
function requireReason(kind: MockProblemKind, reason: string): void {
  if (reason.trim() === '') throw new MockServerError('InvalidScript', `tolerate('${kind}') needs a reason: say why this test expects it`);
}

function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function describeScripted(scripted: ScriptedResponse): string {
  switch (scripted.kind) {
    case 'http-error':
      return `HTTP ${scripted.status}`;
    case 'sse': {
      const types = scripted.steps.map((step) => (step instanceof StreamCut ? 'stream cut' : step.type));
      return `SSE: ${types.join(', ')}`;
    }
    default: {
      const unreachable: never = scripted;
      return String(unreachable);
    }
  }
}
