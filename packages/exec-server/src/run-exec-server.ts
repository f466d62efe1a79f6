// The exec-server program: its flags and the service with the sandbox wired in when this machine has
// one; @skein/json-rpc's program skeleton does the listening. Used by this package's bin and by `skein exec-server`.
import { parseArgs } from 'node:util';
import { TRANSPORT_FLAG_OPTIONS, readTransportFlags, runJsonRpcProgram, type JsonRpcProgramIo, type TransportFlags } from '@skein/json-rpc';
import { probeSandbox } from '@skein/sandboxing';
import { DEFAULT_CONCURRENT_REQUESTS, DEFAULT_MAX_REQUEST_BYTES } from './limits.js';
import { LocalFileSystem } from './local/local-file-system.js';
import { LocalProcesses } from './local/local-processes.js';
import { PlatformSandbox } from './local/platform-sandbox.js';
import { SandboxedFileSystem } from './local/sandboxed-file-system.js';
import { ExecServer } from './server/exec-server.js';

/** The exec-server's settings, as its flags spell them; `listen` is `ws://IP:PORT` (default `ws://127.0.0.1:0`), `stdio` or `stdio://`. */
export interface ExecServerSettings extends TransportFlags {
  /** Requests one connection runs at once (default 1). */
  readonly concurrentRequests?: number | undefined;
  /** The largest request acted on, in bytes. */
  readonly maxRequestBytes?: number | undefined;
  /** Exit when standard input closes (for a parent that owns the server over a pipe). */
  readonly exitOnStdinClose?: boolean | undefined;
}

/** Where the program runs: the transport's streams and stop signal, and the environment served. */
export interface ExecServerIo extends JsonRpcProgramIo {
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A bad command line or setting; the message says what to change. */
export class ExecServerSettingsError extends Error {
  override readonly name = 'ExecServerSettingsError';
  readonly code = 'InvalidSettings';
}

const USAGE = `Usage: skein-exec-server [--listen ws://IP:PORT | stdio] [--ws-auth capability-token (--ws-token-file PATH | --ws-token-sha256 HEX) | --ws-auth signed-bearer-token --ws-shared-secret-file PATH [--ws-issuer ISS] [--ws-audience AUD] [--ws-max-clock-skew-seconds N]]
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
        ...TRANSPORT_FLAG_OPTIONS,
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
    ...readTransportFlags(values),
    concurrentRequests: positiveInteger('--concurrent-requests', values['concurrent-requests']),
    maxRequestBytes: positiveInteger('--max-request-bytes', values['max-request-bytes']),
    exitOnStdinClose: values['exit-on-stdin-close'],
  };
}

/** Builds the service for this machine: sandboxed fs calls and processes when a sandbox is usable. */
export function createLocalExecServer(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly concurrentRequests?: number | undefined;
  readonly maxRequestBytes?: number | undefined;
}): Promise<ExecServer> {
  // Without a usable sandbox the server still starts: confined calls are refused with the probe's
  // reason and remedy, never run unconfined. The probe (a bwrap run) goes on while the server starts
  // listening; `initialize` waits for it.
  const sandboxAvailable = probeSandbox({ env: options.env, cwd: options.cwd }).then((capability) => capability.available);
  const sandbox = new PlatformSandbox();
  // Still a promise (the API's shape): a rejection, not a throw, for options ExecServer refuses.
  return Promise.resolve().then(() => new ExecServer({
    fileSystem: new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ fallbackCwd: options.cwd, hostEnv: options.env }) }),
    createProcesses: () => new LocalProcesses({ sandbox }),
    cwd: options.cwd,
    hostEnv: options.env,
    concurrentRequests: options.concurrentRequests ?? DEFAULT_CONCURRENT_REQUESTS,
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    sandboxAvailable,
  }));
}

/**
 * Runs the exec-server until it is told to stop: for WebSocket, prints the listening URL on stdout
 * and serves until shutdown (or stdin closes, with `exitOnStdinClose`); for stdio, serves one client
 * until its input ends. Resolves to the exit code; setting errors are printed as `error: …`.
 */
export function runExecServer(settings: ExecServerSettings, io: ExecServerIo): Promise<number> {
  return runJsonRpcProgram({
    flags: settings,
    defaultListen: 'ws://127.0.0.1:0',
    io,
    settingsError: ExecServerSettingsError,
    exitOnStdinClose: settings.exitOnStdinClose,
    createServer: () =>
      createLocalExecServer({ cwd: io.cwd, env: io.env, concurrentRequests: settings.concurrentRequests, maxRequestBytes: settings.maxRequestBytes }),
    // Codex's exec-server prints only the URL, on stdout, for the parent that spawned it to read.
    onListening: (listener) => io.stdout.write(`${listener.url}\n`),
  });
}
