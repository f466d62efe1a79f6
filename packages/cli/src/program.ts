// The skein command tree. Subcommands that serve a process delegate to their package's entry point.
import { ConfigError, type ConfigWarning } from '@skein/config';
import { Command, CommanderError } from 'commander';
import { formatFeatureList } from './commands/features-list.js';
import { addAppServerCommand } from './commands/app-server.js';
import { addExecServerCommand } from './commands/exec-server.js';
import { addExecCommand } from './commands/exec.js';
import { addSandboxCommand } from './commands/sandbox.js';
import { VERSION_LINE } from './version.js';
import { addGlobalOptions, loadConfigFor, type GlobalOptions, type ProcessContext } from './global-options.js';

/** Where the program writes; injected so tests can run it in-process. */
export interface ProgramIo extends ProcessContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** All of standard input, for commands that take their input there (`exec` without a prompt). */
  readonly readStdin: () => Promise<string>;
  /** Whether stdin / stderr are terminals: `exec` reads piped input beside a prompt, and styles a terminal. */
  readonly stdinIsTerminal?: boolean;
  readonly stderrIsTerminal?: boolean;
  /**
   * Runs `cleanup` (awaited) before the process ends on SIGINT, SIGTERM or SIGHUP; returns the
   * unregistration. Commands that own processes use it so nothing outlives them.
   */
  readonly onTermination?: (cleanup: () => Promise<void>) => () => void;
}

/** Runs `skein` with `argv` (without the node and script paths); resolves to the exit code. */
export async function runSkein(argv: readonly string[], io: ProgramIo): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    // Typed failures (config, rollout, user input, sandbox, file system) carry a stable `code` and a
    // message written for the user; anything else is a bug and keeps its stack trace.
    if (error instanceof ConfigError || hasCode(error)) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function buildProgram(io: ProgramIo, setExitCode: (code: number) => void): Command {
  const program = addGlobalOptions(new Command('skein'))
    .description('A TypeScript runtime for coding agents, compatible with OpenAI Codex')
    .version(VERSION_LINE, '-V, --version', 'print the version of skein and of the Codex it is compatible with')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    // A subcommand's help lists the global -c, --enable, -p… it accepts too.
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError();

  const features = program.command('features').description('inspect feature flags');
  features
    .command('list')
    .description('list every feature flag with its stage and effective value')
    .action(async (_options: unknown, command: Command) => {
      const { config, warnings } = await loadConfigFor(command.optsWithGlobals<GlobalOptions>(), io);
      reportWarnings(warnings, io);
      io.stdout(`${formatFeatureList(config.features)}\n`);
    });

  addExecCommand(program, io, setExitCode);
  addSandboxCommand(program, io, setExitCode);
  addExecServerCommand(program, io, setExitCode);
  addAppServerCommand(program, io, setExitCode);

  return program;
}

function reportWarnings(warnings: readonly ConfigWarning[], io: ProgramIo): void {
  for (const warning of warnings) io.stderr(`warning: ${warning.message}\n`);
}

function hasCode(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}
