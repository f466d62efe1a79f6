// `skein app-server`: Codex's app-server protocol (JSON-RPC v2) over stdio or WebSocket, for IDEs
// and scripts written for `codex app-server`. The work is @skein/app-server's own entry point.
import { Writable } from 'node:stream';
import { runAppServer, type AppServerSettings } from '@skein/app-server';
import type { WebSocketAuthFlags } from '@skein/json-rpc';
import type { Command } from 'commander';
import { addWebSocketAuthOptions } from '../websocket-auth-options.js';
import type { GlobalOptions, ProcessContext } from '../global-options.js';

/** Where `skein app-server` reads and writes. */
export interface AppServerCommandIo extends ProcessContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

interface AppServerFlags extends WebSocketAuthFlags {
  readonly listen?: string;
  readonly stdio?: boolean;
  readonly extension: string[];
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function textSink(write: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
}

/** Adds `app-server` to `program`; `setExitCode` receives the server's exit status. */
export function addAppServerCommand(program: Command, io: AppServerCommandIo, setExitCode: (code: number) => void): void {
  const command = program
    .command('app-server')
    .description('serve the app-server protocol (JSON-RPC v2) to IDEs and scripts (as `codex app-server`)')
    .option('--listen <url>', 'stdio:// (default) or ws://IP:PORT')
    .option('--stdio', 'same as --listen stdio://')
    .option('--extension <spec>', "load an extension into every thread: a package name or a path (repeatable; adds to [skein] extensions)", collect, []);
  addWebSocketAuthOptions(command)
    .action(async (_flags: AppServerFlags, command: Command) => {
      const options = command.optsWithGlobals<AppServerFlags & GlobalOptions>();
      const settings: AppServerSettings = {
        listen: options.stdio === true ? 'stdio://' : options.listen,
        wsAuth: options.wsAuth,
        wsTokenFile: options.wsTokenFile,
        wsTokenSha256: options.wsTokenSha256,
        wsSharedSecretFile: options.wsSharedSecretFile,
        wsIssuer: options.wsIssuer,
        wsAudience: options.wsAudience,
        wsMaxClockSkewSeconds: options.wsMaxClockSkewSeconds,
        configOverrides: options.config,
        enable: options.enable,
        disable: options.disable,
        profile: options.profile,
        strictConfig: options.strictConfig,
        bypassHookTrust: options.dangerouslyBypassHookTrust,
        extensions: options.extension,
      };
      setExitCode(
        await runAppServer(settings, {
          cwd: io.cwd,
          env: io.env,
          importModule: io.importModule,
          stdin: process.stdin,
          stdout: textSink(io.stdout),
          stderr: textSink(io.stderr),
        }),
      );
    });
}
