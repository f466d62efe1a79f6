// The program skeleton both servers share: read `--listen` and the auth flags, refuse what the
// transport's rules forbid, build the service, serve stdio or WebSocket until told to stop, shut down.
import type { Readable, Writable } from 'node:stream';
import { CapabilityTokenError } from './capability-token.js';
import { SignedBearerTokenError } from './signed-bearer-token.js';
import type { UpgradeAuth } from './upgrade-auth.js';
import type { ErrorClass } from './json-rpc-error-mapping.js';
import type { JsonRpcService } from './json-rpc-service.js';
import { ListenAddressError, checkListenerExposure, parseListenAddress } from './listen-address.js';
import { serveStdio } from './stdio-transport.js';
import type { TransportFlags } from './transport-flags.js';
import { resolveWebSocketAuth } from './websocket-auth.js';
import { listenWebSocket, preloadWebSocketListener } from './listen-websocket.js';
import type { WebSocketListener } from './websocket-listener.js';

/** A service a program runs: served by the transports, closed once they are. */
export interface JsonRpcProgramServer extends JsonRpcService {
  /** Disconnects every client and releases what the service holds. */
  close(): Promise<void>;
}

/** Where a server program runs; every stream is the process's own in a bin, a PassThrough in tests. */
export interface JsonRpcProgramIo {
  readonly cwd: string;
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Stops a WebSocket server (default: SIGINT or SIGTERM). */
  readonly shutdown?: AbortSignal | undefined;
}

/** What a server program supplies to {@link runJsonRpcProgram}: only what is its own. */
export interface JsonRpcProgram<S extends JsonRpcProgramServer> {
  /** The transport flags it was given. */
  readonly flags: TransportFlags;
  /** The `--listen` value when none is given (`stdio://` for the app-server, `ws://127.0.0.1:0` for the exec-server). */
  readonly defaultListen: string;
  readonly io: JsonRpcProgramIo;
  /** The program's own settings error class, for flag combinations that make no sense (printed as `error: …`). */
  readonly settingsError: new (message: string) => Error;
  /** Error classes that mean "bad settings" besides the transport's own: printed as `error: …`, exit 1. */
  readonly usageErrors?: readonly ErrorClass<Error>[] | undefined;
  /** Builds the service, once the flags have been checked. */
  readonly createServer: () => Promise<S>;
  /** Announces a WebSocket listener (where it listens, on the stream the program's clients read). */
  readonly onListening: (listener: WebSocketListener) => void;
  /** Also stop a WebSocket server when standard input ends (for a parent that owns it over a pipe). */
  readonly exitOnStdinClose?: boolean | undefined;
}

function shutdownSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}

function untilStopped(io: JsonRpcProgramIo, exitOnStdinClose: boolean): Promise<void> {
  const shutdown = io.shutdown ?? shutdownSignal();
  return new Promise<void>((resolve) => {
    if (shutdown.aborted) resolve();
    shutdown.addEventListener('abort', () => resolve(), { once: true });
    if (exitOnStdinClose) {
      io.stdin.once('end', resolve);
      io.stdin.once('close', resolve);
      io.stdin.resume();
    }
  });
}

/**
 * Runs a server program until it is told to stop: over stdio, one client until its input ends; over
 * WebSocket, announcing the listener and serving until shutdown. Resolves to the exit code; settings
 * errors (the program's, a bad `--listen`, bad auth flags, an unauthenticated non-loopback listener)
 * are printed as `error: …` and give 1; anything else is thrown.
 *
 * @example
 * process.exitCode = await runJsonRpcProgram({ flags, defaultListen: 'stdio://', io, settingsError: MySettingsError,
 *   createServer: () => createMyServer(), onListening: (listener) => io.stderr.write(`listening on ${listener.url}\n`) });
 */
export async function runJsonRpcProgram<S extends JsonRpcProgramServer>(program: JsonRpcProgram<S>): Promise<number> {
  const { io, flags } = program;
  const usageErrors: readonly ErrorClass<Error>[] = [program.settingsError, ListenAddressError, CapabilityTokenError, SignedBearerTokenError, ...(program.usageErrors ?? [])];
  const fail = (message: string): Error => new program.settingsError(message);
  try {
    const address = parseListenAddress(flags.listen ?? program.defaultListen);
    // Its failure, if any, is reported by listenWebSocket below.
    if (address.kind === 'websocket') preloadWebSocketListener().catch(() => undefined);
    const auth: UpgradeAuth | undefined = await resolveWebSocketAuth(flags, io.cwd, fail);
    if (address.kind === 'stdio' && auth !== undefined) throw fail('--ws-auth applies to WebSocket listeners only');
    // Checked before the service is built, so a refused listener costs nothing (listenWebSocket checks again).
    if (address.kind === 'websocket') checkListenerExposure(address, auth !== undefined);
    const server = await program.createServer();
    if (address.kind === 'stdio') {
      await serveStdio(server, io.stdin, io.stdout);
      await server.close();
      return 0;
    }
    let listener: WebSocketListener;
    try {
      listener = await listenWebSocket({ host: address.host, port: address.port, server, auth });
    } catch (error) {
      await server.close();
      throw error;
    }
    program.onListening(listener);
    await untilStopped(io, program.exitOnStdinClose ?? false);
    await listener.close();
    await server.close();
    return 0;
  } catch (error) {
    if (usageErrors.some((errorClass) => error instanceof errorClass)) {
      io.stderr.write(`error: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}
