// `skein exec-server`: serves this machine's files and processes over Codex's exec-server protocol.
// The flags are `codex exec-server`'s; the work is @skein/exec-server's own entry point.
import { Readable, Writable } from 'node:stream';
import { runExecServer, type ExecServerSettings } from '@skein/exec-server';
import type { WebSocketAuthFlags } from '@skein/json-rpc';
import { InvalidArgumentError, type Command } from 'commander';
import type { ProcessContext } from '../global-options.js';
import { addWebSocketAuthOptions } from '../websocket-auth-options.js';

/** Where `skein exec-server` reads and writes. */
export interface ExecServerCommandIo extends ProcessContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The client's input for `--listen stdio` (default: the process's stdin, read only in that mode). */
  readonly stdin?: Readable;
}

interface ExecServerOptions extends WebSocketAuthFlags {
  readonly listen?: string;
  readonly concurrentRequests?: number;
  readonly maxRequestBytes?: number;
  readonly exitOnStdinClose?: boolean;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a positive integer');
  return number;
}

function textSink(write: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
}

/** Adds `exec-server` to `program`; `setExitCode` receives the server's exit status. */
export function addExecServerCommand(program: Command, io: ExecServerCommandIo, setExitCode: (code: number) => void): void {
  const command = program
    .command('exec-server')
    .description('serve this machine\'s files and processes over the exec-server protocol (as `codex exec-server`)')
    .option('--listen <url>', 'ws://IP:PORT (default ws://127.0.0.1:0; the URL is printed), or stdio');
  addWebSocketAuthOptions(command)
    .option('--concurrent-requests <count>', 'requests one connection runs at once (default 1)', positiveInteger)
    .option('--max-request-bytes <bytes>', 'the largest request acted on', positiveInteger)
    .option('--exit-on-stdin-close', 'exit when standard input closes')
    .action(async (options: ExecServerOptions) => {
      const settings: ExecServerSettings = { ...options };
      const stdio = options.listen === 'stdio' || options.listen === 'stdio://';
      setExitCode(
        await runExecServer(settings, {
          cwd: io.cwd,
          env: io.env,
          // Standard input belongs to the client only in stdio mode (or when it signals shutdown).
          stdin: io.stdin ?? (stdio || options.exitOnStdinClose === true ? process.stdin : Readable.from([])),
          stdout: textSink(io.stdout),
          stderr: textSink(io.stderr),
        }),
      );
    });
}
