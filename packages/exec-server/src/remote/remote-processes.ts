// RemoteProcesses: ExecutorProcesses over an exec-server connection. Events come from the server's
// process/* notifications; `close` terminates what this client started and waits for the exits.
import { randomUUID } from 'node:crypto';
import type { JsonRpcNotification } from '@skein/protocol/executor';
import type {
  ExecutorProcesses,
  ProcessEvent,
  ProcessReadResult,
  ProcessSignal,
  ReadProcessOptions,
  StartProcessParams,
  StartProcessResult,
  TerminalSize,
  WriteStatus,
} from '../process-api.js';
import { toBase64 } from '../protocol/base64-bytes.js';
import {
  EmptyResponse,
  ExecServerMethod,
  ExecServerNotification,
  ProcessClosedNotification,
  ProcessExitedNotification,
  ProcessOutputNotification,
  ProcessReadResponse,
  ProcessStartResponse,
  ProcessTerminateResponse,
  ProcessWriteResponse,
} from '../protocol/messages.js';
import { processErrorFrom } from './error-from-answer.js';
import type { ExecServerClient } from './exec-server-client.js';

function eventOf(notification: JsonRpcNotification): ProcessEvent | undefined {
  switch (notification.method) {
    case ExecServerNotification.ProcessOutput: {
      const parsed = ProcessOutputNotification.safeParse(notification.params);
      return parsed.success ? { type: 'output', ...parsed.data } : undefined;
    }
    case ExecServerNotification.ProcessExited: {
      const parsed = ProcessExitedNotification.safeParse(notification.params);
      return parsed.success ? { type: 'exited', ...parsed.data } : undefined;
    }
    case ExecServerNotification.ProcessClosed: {
      const parsed = ProcessClosedNotification.safeParse(notification.params);
      return parsed.success ? { type: 'closed', ...parsed.data } : undefined;
    }
    default:
      return undefined;
  }
}

/** The processes this client starts on an exec-server's machine. */
export class RemoteProcesses implements ExecutorProcesses {
  private readonly listeners = new Set<(event: ProcessEvent) => void>();
  /** Started here and not yet reported exited, with who waits for the exit. */
  private readonly live = new Map<string, (() => void)[]>();

  constructor(private readonly client: ExecServerClient) {
    client.onNotification((notification) => {
      const event = eventOf(notification);
      if (event === undefined) return;
      if (event.type === 'exited') this.settle(event.processId);
      for (const listener of this.listeners) listener(event);
    });
    // The connection is gone: every process still running there is lost to this client, and says so
    // rather than leave a caller waiting for an exit that will never be reported.
    client.onClosed(() => {
      const reason = `the exec-server connection closed: ${client.closedReason ?? 'closed'}`;
      for (const processId of [...this.live.keys()]) {
        this.settle(processId);
        for (const listener of this.listeners) listener({ type: 'lost', processId, reason });
      }
    });
  }

  async start(params: StartProcessParams): Promise<StartProcessResult> {
    const wire: Record<string, unknown> = {
      processId: params.processId,
      argv: params.argv,
      cwd: params.cwd,
      env: params.env,
      tty: params.tty,
      pipeStdin: params.pipeStdin ?? false,
      arg0: params.arg0 ?? null,
    };
    if (params.envPolicy != null) wire.envPolicy = params.envPolicy;
    if (params.sandbox != null) wire.sandbox = params.sandbox;
    if (params.outputByteCap !== undefined) wire.outputByteCap = params.outputByteCap;
    if (params.size !== undefined) wire.size = params.size;
    // Registered first: a fast process's exit notification may beat the start answer.
    const fresh = !this.live.has(params.processId);
    if (fresh) this.live.set(params.processId, []);
    try {
      return await this.client.request(ExecServerMethod.ProcessStart, wire, ProcessStartResponse, processErrorFrom);
    } catch (error) {
      if (fresh) this.live.delete(params.processId);
      throw error;
    }
  }

  read(processId: string, options: ReadProcessOptions = {}): Promise<ProcessReadResult> {
    const params = { processId, afterSeq: options.afterSeq ?? null, maxBytes: options.maxBytes ?? null, waitMs: options.waitMs ?? null };
    return this.client.request(ExecServerMethod.ProcessRead, params, ProcessReadResponse, processErrorFrom);
  }

  async write(processId: string, chunk: Uint8Array, writeId?: string): Promise<WriteStatus> {
    const params = { processId, chunk: toBase64(chunk), writeId: writeId ?? randomUUID() };
    return (await this.client.request(ExecServerMethod.ProcessWrite, params, ProcessWriteResponse, processErrorFrom)).status;
  }

  async signal(processId: string, signal: ProcessSignal): Promise<void> {
    await this.client.request(ExecServerMethod.ProcessSignal, { processId, signal }, EmptyResponse, processErrorFrom);
  }

  terminate(processId: string): Promise<{ running: boolean }> {
    return this.client.request(ExecServerMethod.ProcessTerminate, { processId }, ProcessTerminateResponse, processErrorFrom);
  }

  async resize(processId: string, size: TerminalSize): Promise<void> {
    await this.client.request(ExecServerMethod.ProcessResize, { processId, ...size }, EmptyResponse, processErrorFrom);
  }

  subscribe(listener: (event: ProcessEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    const pending = [...this.live.keys()];
    const exits = pending.map((processId) => new Promise<void>((resolve) => this.live.get(processId)?.push(resolve) ?? resolve()));
    await Promise.all(
      pending.map(async (processId) => {
        const answer = await this.terminate(processId).catch(() => undefined);
        // Not running (or no answer): it has already exited and its notification may never come.
        if (answer?.running !== true) this.settle(processId);
      }),
    );
    await Promise.all(exits);
  }

  private settle(processId: string): void {
    const waiters = this.live.get(processId);
    this.live.delete(processId);
    for (const wake of waiters ?? []) wake();
  }
}
