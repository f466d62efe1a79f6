// `CODEX_EXEC_SERVER_URL=ws://…`: `skein exec` runs its commands and patches on that exec-server
// instead of this machine, as `codex exec` does.
import { remoteThreadEnvironment, type ThreadEnvironment } from '@skein/core';
import { connectExecServer, type RemoteExecutor } from '@skein/exec-server';

/** The variable naming the exec-server. */
export const EXEC_SERVER_URL_ENV = 'CODEX_EXEC_SERVER_URL';
/** The id the exec-server's environment goes by (in approval keys and `<environment_context>`). */
export const REMOTE_ENVIRONMENT_ID = 'remote';
/** How long to wait for the WebSocket and the `initialize` answer. */
export const EXEC_SERVER_CONNECT_TIMEOUT_MS = 10_000;

/** Why the exec-server could not be used; printed as `error: …`, before any model request. */
export class ExecServerEnvironmentError extends Error {
  override readonly name = 'ExecServerEnvironmentError';

  constructor(
    readonly code: 'InvalidExecServerUrl' | 'ExecServerUnreachable',
    message: string,
  ) {
    super(message);
  }
}

/** The exec-server's URL from `env`, checked; undefined when the variable is unset or empty. */
export function execServerUrlFrom(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = env[EXEC_SERVER_URL_ENV];
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ExecServerEnvironmentError('InvalidExecServerUrl', `${EXEC_SERVER_URL_ENV}: \`${value}\` is not a URL; give the exec-server's ws:// or wss:// address`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new ExecServerEnvironmentError('InvalidExecServerUrl', `${EXEC_SERVER_URL_ENV}: exec-server url \`${value}\` must use ws:// or wss://`);
  }
  return url.toString();
}

/** A connected exec-server as a thread's environment. */
export interface RemoteExecEnvironment {
  readonly environment: ThreadEnvironment;
  /** Closes the connection; the exec-server kills what the thread left running. */
  close(): Promise<void>;
}

/** Connects to the exec-server at `url` (checked by `execServerUrlFrom`) within `timeoutMs`. */
export async function connectRemoteEnvironment(url: string, timeoutMs: number = EXEC_SERVER_CONNECT_TIMEOUT_MS): Promise<RemoteExecEnvironment> {
  const attempt = connectExecServer({ url, clientName: 'skein_exec', handshakeTimeoutMs: timeoutMs });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExecServerEnvironmentError('ExecServerUnreachable', `no answer from the exec-server at ${url} within ${timeoutMs} ms`)), timeoutMs);
  });
  let executor: RemoteExecutor;
  try {
    executor = await Promise.race([attempt, deadline]);
  } catch (error) {
    // A connection that comes after the deadline is closed at once.
    attempt.then((late) => late.close(), () => undefined).catch(() => undefined);
    if (error instanceof ExecServerEnvironmentError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ExecServerEnvironmentError('ExecServerUnreachable', `${EXEC_SERVER_URL_ENV}: could not connect to the exec-server at ${url}: ${detail}`);
  } finally {
    clearTimeout(timer);
  }
  const info = executor.client.environment;
  if (info === undefined) {
    await executor.close();
    throw new ExecServerEnvironmentError('ExecServerUnreachable', `${EXEC_SERVER_URL_ENV}: the exec-server at ${url} did not describe itself`);
  }
  return { environment: remoteThreadEnvironment(REMOTE_ENVIRONMENT_ID, executor, info), close: () => executor.close() };
}
