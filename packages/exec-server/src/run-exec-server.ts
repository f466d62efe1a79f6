// The exec-server program: `--listen ws://IP:PORT | stdio`, capability-token auth, the sandbox wired
// in when this machine has one. Used by this package's bin and by `skein exec-server`.
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { probeSandbox } from '@skein/sandboxing';
import { DEFAULT_CONCURRENT_REQUESTS, DEFAULT_MAX_REQUEST_BYTES } from './limits.js';
import { LocalFileSystem } from './local/local-file-system.js';
import { LocalProcesses } from './local/local-processes.js';
import { PlatformSandbox } from './local/platform-sandbox.js';
import { SandboxedFileSystem } from './local/sandboxed-file-system.js';
import { resolveWebSocketAuth, type WebSocketAuthFlags } from './server/websocket-auth.js';
import type { CapabilityToken } from './server/capability-token.js';
import { CapabilityTokenError } from './server/capability-token.js';
import { ExecServer } from './server/exec-server.js';
import { serveStdio } from './server/stdio-transport.js';
import { ListenAddressError, listenWebSocket, parseWebSocketAddress } from './server/websocket-listener.js';

/** The exec-server's settings, as its flags spell them. */
export interface ExecServerSettings extends WebSocketAuthFlags {
  /** `ws://IP:PORT` (default `ws://127.0.0.1:0`), `stdio` or `stdio://`. */
  readonly listen?: string | undefined;
  /** Requests one connection runs at once (default 1). */
  readonly concurrentRequests?: number | undefined;
  /** The largest request acted on, in bytes. */
  readonly maxRequestBytes?: number | undefined;
  /** Exit when standard input closes (for a parent that owns the server over a pipe). */
  readonly exitOnStdinClose?: boolean | undefined;
}

/** Where the program runs; every stream defaults to the process's own. */
export interface ExecServerIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Stops a WebSocket server (default: SIGINT or SIGTERM). */
  readonly shutdown?: AbortSignal | undefined;
}

/** A bad command line or setting; the message says what to change. */
export class ExecServerSettingsError extends Error {
  override readonly name = 'ExecServerSettingsError';
  readonly code = 'InvalidSettings';
}

const USAGE = `Usage: skein-exec-server [--listen ws://IP:PORT | stdio] [--ws-auth capability-token (--ws-token-file PATH | --ws-token-sha256 HEX)]
                         [--concurrent-requests N] [--max-request-bytes N] [--exit-on-stdin-close]`;

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new ExecServerSettingsError(`${flag} must be a positive integer, got \`${value}\``);
  return number;
}

/** Parses the flags Codex's `exec-server` takes (the subset Skein implements) plus `--max-request-bytes`. */
export function parseExecServerArgs(argv: readonly string[]): ExecServerSettings & { readonly help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        listen: { type: 'string' },
        'ws-auth': { type: 'string' },
        'ws-token-file': { type: 'string' },
        'ws-token-sha256': { type: 'string' },
        'concurrent-requests': { type: 'string' },
        'max-request-bytes': { type: 'string' },
        'exit-on-stdin-close': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new ExecServerSettingsError(`${(error as Error).message}\n${USAGE}`);
  }
  const { values } = parsed;
  return {
    help: values.help ?? false,
    listen: values.listen,
    wsAuth: values['ws-auth'],
    wsTokenFile: values['ws-token-file'],
    wsTokenSha256: values['ws-token-sha256'],
    concurrentRequests: positiveInteger('--concurrent-requests', values['concurrent-requests']),
    maxRequestBytes: positiveInteger('--max-request-bytes', values['max-request-bytes']),
    exitOnStdinClose: values['exit-on-stdin-close'],
  };
}

function resolveAuth(settings: ExecServerSettings, cwd: string): Promise<CapabilityToken | undefined> {
  return resolveWebSocketAuth(settings, cwd, (message) => new ExecServerSettingsError(message));
}

/** Builds the service for this machine: sandboxed fs calls and processes when a sandbox is usable. */
export async function createLocalExecServer(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly concurrentRequests?: number | undefined;
  readonly maxRequestBytes?: number | undefined;
}): Promise<ExecServer> {
  // Without a usable sandbox the server still starts: confined calls are refused with the probe's
  // reason and remedy, never run unconfined.
  const capability = await probeSandbox({ env: options.env, cwd: options.cwd });
  const sandbox = new PlatformSandbox();
  return new ExecServer({
    fileSystem: new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ fallbackCwd: options.cwd, hostEnv: options.env }) }),
    createProcesses: () => new LocalProcesses({ sandbox }),
    cwd: options.cwd,
    hostEnv: options.env,
    concurrentRequests: options.concurrentRequests ?? DEFAULT_CONCURRENT_REQUESTS,
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    sandboxAvailable: capability.available,
  });
}

function shutdownSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}

/**
 * Runs the exec-server until it is told to stop: for WebSocket, prints the listening URL on stdout
 * and serves until shutdown (or stdin closes, with `exitOnStdinClose`); for stdio, serves one client
 * until its input ends. Resolves to the exit code; setting errors are printed as `error: …`.
 */
export async function runExecServer(settings: ExecServerSettings, io: ExecServerIo): Promise<number> {
  try {
    const listen = settings.listen ?? 'ws://127.0.0.1:0';
    const stdio = listen === 'stdio' || listen === 'stdio://';
    const address = stdio ? undefined : parseWebSocketAddress(listen);
    const auth = await resolveAuth(settings, io.cwd);
    if (stdio && auth !== undefined) throw new ExecServerSettingsError('--ws-auth applies to WebSocket listeners only');
    const server = await createLocalExecServer({
      cwd: io.cwd,
      env: io.env,
      concurrentRequests: settings.concurrentRequests,
      maxRequestBytes: settings.maxRequestBytes,
    });
    if (address === undefined) {
      await serveStdio(server, io.stdin, io.stdout);
      return 0;
    }
    const listener = await listenWebSocket({ ...address, server, auth });
    io.stdout.write(`${listener.url}\n`);
    const shutdown = io.shutdown ?? shutdownSignal();
    await new Promise<void>((resolve) => {
      if (shutdown.aborted) resolve();
      shutdown.addEventListener('abort', () => resolve(), { once: true });
      if (settings.exitOnStdinClose === true) {
        io.stdin.once('end', resolve);
        io.stdin.once('close', resolve);
        io.stdin.resume();
      }
    });
    await listener.close();
    return 0;
  } catch (error) {
    if (error instanceof ExecServerSettingsError || error instanceof ListenAddressError || error instanceof CapabilityTokenError) {
      io.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
