// `skein sandbox`: runs one command under a sandbox policy, accepting `codex sandbox`'s flags (`-P`
// built-in permission profile, `-C` with a profile, `-c sandbox_mode=…`) plus `--sandbox MODE`.
// stdio passes straight through; the command's exit status becomes skein's.
import type { ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@skein/config';
import {
  BUILT_IN_PERMISSION_PROFILES,
  SandboxUnavailableError,
  prepareSandboxedSpawn,
  sandboxPolicyFromConfig,
  spawnSandboxed,
  type SandboxRequest,
} from '@skein/sandboxing';
import { Option, type Command } from 'commander';
import { loadConfigFor, type GlobalOptions, type ProcessContext } from '../global-options.js';

/** What `skein sandbox` writes besides the command's own output, and where it runs. */
export interface SandboxCommandIo extends ProcessContext {
  readonly stderr: (text: string) => void;
}

/** The options of `skein sandbox` itself. */
interface SandboxOptions {
  readonly sandbox?: 'read-only' | 'workspace-write' | 'danger-full-access';
  readonly permissionProfile?: string;
  readonly cd?: string;
}

type BuiltInProfile = keyof typeof BUILT_IN_PERMISSION_PROFILES;
const isBuiltInProfile = (name: string): name is BuiltInProfile => Object.hasOwn(BUILT_IN_PERMISSION_PROFILES, name);

// Exit statuses of a shell: a command that cannot be started, and a usage error.
const EXIT_NOT_FOUND = 127;
const EXIT_USAGE = 2;
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

/** The policy for the options: `-P` wins, then `--sandbox` (with `[sandbox_workspace_write]`), then config. */
export function sandboxCommandPolicy(options: SandboxOptions, config: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>): SandboxRequest['policy'] {
  if (options.permissionProfile !== undefined && isBuiltInProfile(options.permissionProfile)) return BUILT_IN_PERMISSION_PROFILES[options.permissionProfile];
  if (options.sandbox !== undefined) return sandboxPolicyFromConfig({ sandboxMode: options.sandbox, sandboxWorkspaceWrite: config.sandboxWorkspaceWrite });
  return sandboxPolicyFromConfig(config);
}

/** Adds `sandbox` to `program`; `setExitCode` receives the command's exit status. */
export function addSandboxCommand(program: Command, io: SandboxCommandIo, setExitCode: (code: number) => void): void {
  program
    .command('sandbox')
    .description('run a command under a sandbox policy (as `codex sandbox`)')
    .addOption(new Option('-s, --sandbox <mode>', 'sandbox mode for this command').choices(['read-only', 'workspace-write', 'danger-full-access']))
    .option('-P, --permission-profile <name>', `built-in permission profile: ${Object.keys(BUILT_IN_PERMISSION_PROFILES).join(', ')} (not to be confused with -p, the config profile)`)
    .option('-C, --cd <dir>', 'working directory of the command (only together with -P)')
    .argument('<command...>', 'the command and its arguments, after --')
    .action(async (command: string[], options: SandboxOptions, self: Command) => {
      if (options.cd !== undefined && options.permissionProfile === undefined) {
        self.error('error: -C/--cd requires -P/--permission-profile', { exitCode: EXIT_USAGE, code: 'skein.sandbox.usage' });
      }
      if (options.permissionProfile !== undefined && options.sandbox !== undefined) {
        self.error('error: -P/--permission-profile and --sandbox cannot be combined', { exitCode: EXIT_USAGE, code: 'skein.sandbox.usage' });
      }
      if (options.permissionProfile !== undefined && !isBuiltInProfile(options.permissionProfile)) {
        self.error(`error: unknown permission profile '${options.permissionProfile}'; built-in profiles are ${Object.keys(BUILT_IN_PERMISSION_PROFILES).join(', ')}`, {
          exitCode: EXIT_USAGE,
          code: 'skein.sandbox.usage',
        });
      }
      const cwd = options.cd === undefined ? io.cwd : path.resolve(io.cwd, options.cd);
      if (!isDirectory(cwd)) {
        io.stderr(`error: -C ${options.cd ?? ''}: not a directory: ${cwd}\n`);
        setExitCode(1);
        return;
      }
      const { config, warnings } = await loadConfigFor(self.optsWithGlobals<GlobalOptions>(), { cwd, env: io.env });
      for (const warning of warnings) io.stderr(`warning: ${warning.message}\n`);
      setExitCode(await runConfined({ policy: sandboxCommandPolicy(options, config), cwd, env: io.env }, command, io));
    });
}

function isDirectory(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

async function runConfined(request: SandboxRequest, command: readonly string[], io: SandboxCommandIo): Promise<number> {
  let spec;
  try {
    spec = await prepareSandboxedSpawn(request, command);
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return 1;
  }
  // The terminal's signals reach skein; the command may sit in its own session, so pass them on.
  // Listening starts before the spawn, or a signal in between would end skein by default and leave
  // the command running; a listener runs on a later tick, when `child` is set.
  let child: ChildProcess | undefined;
  const forward = (signal: NodeJS.Signals): void => {
    child?.kill(signal);
  };
  const stopForwarding = () => {
    for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  try {
    child = spawnSandboxed(spec, { cwd: request.cwd, env: request.env, stdio: ['inherit', 'inherit', 'inherit'] });
  } catch (error) {
    stopForwarding();
    throw error;
  }
  const started = child;
  try {
    return await new Promise<number>((resolve) => {
      started.once('error', (error: NodeJS.ErrnoException) => {
        io.stderr(`error: cannot run ${command[0] ?? ''}: ${error.code ?? error.message}\n`);
        resolve(error.code === 'ENOENT' ? EXIT_NOT_FOUND : 1);
      });
      started.once('close', (code, signal) => {
        resolve(code ?? 128 + (signal === null ? 0 : osConstants.signals[signal]));
      });
    });
  } finally {
    stopForwarding();
  }
}
