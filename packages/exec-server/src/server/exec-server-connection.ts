// One client of the exec-server: the initialize handshake, a bounded request queue worked at a fixed
// concurrency (file reads together), the client's processes and file handles, and their teardown when the client goes away.
import { randomUUID } from 'node:crypto';
import { OVERSIZED_HEAD_BYTES, RequestQueue, UNKNOWN_REQUEST_ID, recoverRequestId, type JsonRpcServiceConnection, type MessageChannel } from '@skein/json-rpc';
import { JsonRpcParseError, parseJsonRpcMessage, type JsonRpcErrorObject, type JsonRpcRequest, type RequestId } from '@skein/protocol/executor';
import type { BlockReaderSource } from '../block-reader.js';
import type { ExecutorFileSystem } from '../file-system.js';
import { CONCURRENT_READS, MAX_OUTBOUND_BUFFERED_BYTES, MAX_QUEUED_REQUESTS } from '../limits.js';
import type { ExecutorProcesses, ProcessEvent } from '../process-api.js';
import { toBase64 } from '../protocol/base64-bytes.js';
import { toJsonText } from '../protocol/json-text.js';
import { ExecServerMethod, ExecServerNotification, InitializeParams, type EnvironmentInfo } from '../protocol/messages.js';
import { ExecServerErrorCode } from '../protocol/exec-server-error-code.js';
import { FileHandles } from './file-handles.js';
import { METHOD_HANDLERS, type HandlerContext, type MethodGroup } from './method-handlers.js';
import { RequestError } from './request-error.js';
import { toJsonRpcError } from './to-json-rpc-error.js';

/**
 * Methods that only read files: a connection runs these together. Open handles (`fs/open`,
 * `fs/readBlock`) and everything on processes keep their order.
 */
const READ_METHODS: ReadonlySet<string> = new Set([
  ExecServerMethod.FsReadFile,
  ExecServerMethod.FsGetMetadata,
  ExecServerMethod.FsReadDirectory,
  ExecServerMethod.FsCanonicalize,
  ExecServerMethod.FsWalk,
]);

/** What a connection needs from its server. */
export interface ConnectionSetup {
  readonly fileSystem: ExecutorFileSystem & BlockReaderSource;
  readonly processes: ExecutorProcesses;
  readonly environment: () => Promise<EnvironmentInfo>;
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  readonly concurrentRequests: number;
  readonly maxRequestBytes: number;
}

type Stage = 'new' | 'initializing' | 'ready';

/** A connected client. Feed it messages with `receive`; `dispose` when the transport closes. */
export class ExecServerConnection implements JsonRpcServiceConnection {
  /** This connection's session, reported by `initialize`. */
  readonly sessionId = randomUUID();
  private stage: Stage = 'new';
  private readonly queue: RequestQueue<JsonRpcRequest>;
  private disposed = false;
  private readonly handles = new FileHandles();
  private readonly context: HandlerContext;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly channel: MessageChannel,
    private readonly setup: ConnectionSetup,
  ) {
    this.context = {
      fileSystem: setup.fileSystem,
      processes: setup.processes,
      handles: this.handles,
      environment: setup.environment,
      hostEnv: setup.hostEnv,
    };
    this.queue = new RequestQueue({
      maxQueued: MAX_QUEUED_REQUESTS,
      concurrency: setup.concurrentRequests,
      // Reads that change nothing run together, still after every earlier write and before every later one.
      reads: { isRead: (request) => READ_METHODS.has(request.method), concurrency: CONCURRENT_READS },
      overloadedMessage: `too many requests in flight on this connection (limit ${MAX_QUEUED_REQUESTS}); wait for answers before sending more`,
      run: (request) => this.handle(request),
      refuse: (request, error) => this.sendError(request.id, error),
    });
    this.unsubscribe = setup.processes.subscribe((event) => this.forward(event));
  }

  /** Handles one incoming message (a WebSocket frame or a stdio line). */
  receive(text: string): void {
    if (this.disposed) return;
    const bytes = Buffer.byteLength(text);
    if (bytes > this.setup.maxRequestBytes) {
      this.receiveOversized(text.slice(0, OVERSIZED_HEAD_BYTES), bytes);
      return;
    }
    let message;
    try {
      message = parseJsonRpcMessage(text);
    } catch (error) {
      if (!(error instanceof JsonRpcParseError)) throw error;
      this.sendError(recoverRequestId(text), { code: ExecServerErrorCode.InvalidRequest, message: `failed to parse JSON-RPC message: ${error.message}` });
      return;
    }
    switch (message.kind) {
      case 'request':
        this.queue.push(message.message);
        return;
      case 'notification':
        if (message.message.method === ExecServerNotification.Initialized && this.stage === 'initializing') this.stage = 'ready';
        return;
      case 'response':
      case 'error':
        // The exec-server sends no requests, so a client's response answers nothing.
        return;
    }
  }

  /**
   * Answers a message that exceeded the request limit without running it. `head` is its start
   * (for the id); `bytes` its size.
   */
  receiveOversized(head: string, bytes: number): void {
    if (this.disposed) return;
    this.sendError(recoverRequestId(head), {
      code: ExecServerErrorCode.InvalidRequest,
      message: `request of ${bytes} bytes exceeds the ${this.setup.maxRequestBytes}-byte limit; send large files in parts`,
    });
  }

  /**
   * Resolves once every request received so far has been answered — for transports whose input can
   * end while the output still works (stdio).
   */
  drain(): Promise<void> {
    return this.queue.drain();
  }

  /** Stops answering, kills this client's processes and closes its files. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.queue.close();
    this.unsubscribe();
    await Promise.all([this.setup.processes.close(), this.handles.closeAll()]);
  }

  private async handle(request: JsonRpcRequest): Promise<void> {
    try {
      const result = await this.dispatch(request);
      this.send({ id: request.id, result });
    } catch (error) {
      this.sendError(request.id, toJsonRpcError(error));
    }
  }

  private async dispatch(request: JsonRpcRequest): Promise<unknown> {
    if (request.method === ExecServerMethod.Initialize) return this.initialize(request.params);
    const handler = METHOD_HANDLERS.get(request.method);
    if (handler === undefined) {
      throw new RequestError(ExecServerErrorCode.MethodNotFound, `exec-server does not implement \`${request.method}\``);
    }
    this.checkStage(handler.group);
    const params = handler.params.parse(request.params ?? null);
    return handler.run(params, this.context);
  }

  private async initialize(params: unknown): Promise<unknown> {
    if (this.stage !== 'new') {
      throw new RequestError(ExecServerErrorCode.InvalidRequest, 'initialize may only be sent once per connection');
    }
    InitializeParams.parse(params ?? null);
    this.stage = 'initializing';
    return { sessionId: this.sessionId, environmentInfo: await this.setup.environment() };
  }

  private checkStage(group: MethodGroup): void {
    if (this.stage === 'new') {
      throw new RequestError(ExecServerErrorCode.InvalidRequest, `client must call initialize before using ${group} methods`);
    }
    if (this.stage === 'initializing') {
      throw new RequestError(ExecServerErrorCode.InvalidRequest, `client must send initialized before using ${group} methods`);
    }
  }

  private forward(event: ProcessEvent): void {
    switch (event.type) {
      case 'output':
        // Streamed output is a convenience (process/read returns it too), so it is what gives way
        // when a slow client lets unsent messages pile up.
        if (this.channel.bufferedBytes > MAX_OUTBOUND_BUFFERED_BYTES) return;
        this.send({
          method: ExecServerNotification.ProcessOutput,
          params: { processId: event.processId, seq: event.seq, stream: event.stream, chunk: toBase64(event.chunk) },
        });
        return;
      case 'exited':
        this.send({
          method: ExecServerNotification.ProcessExited,
          // `signal` only when there is one, so the message is exactly Codex's otherwise.
          params: {
            processId: event.processId,
            seq: event.seq,
            exitCode: event.exitCode,
            ...(event.signal === null ? {} : { signal: event.signal }),
            sandboxDenied: event.sandboxDenied,
          },
        });
        return;
      case 'closed':
        this.send({ method: ExecServerNotification.ProcessClosed, params: { processId: event.processId, seq: event.seq } });
        return;
      case 'lost':
        // Reported by a client of another executor, never by this server's own processes.
        return;
    }
  }

  private sendError(id: RequestId | null, error: JsonRpcErrorObject): void {
    this.send({ error, id: id ?? UNKNOWN_REQUEST_ID });
  }

  private send(message: object): void {
    if (!this.disposed) this.channel.send(toJsonText(message));
  }
}
