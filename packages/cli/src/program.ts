// The skein command tree. Subcommands that serve a process delegate to their package's entry point.
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { VERSION_LINE } from './version.js';
import { addGlobalOptions, type GlobalOptions, type ProcessContext } from './global-options.js';

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
  /** Readies the process for a command that exits soon after its last model request (`exec`); see bin.ts. */
  readonly shortLived?: () => void;
}

/** Runs `skein` with `argv` (without the node and script paths); resolves to the exit code. */
export async function runSkein(given: readonly string[], givenIo: ProgramIo): Promise<number> {
  // `skein -C DIR <command>` runs the command as if started in DIR, as `codex -C DIR` does, and
  // `skein --search <command>` offers live web search. Taken out of argv before commander parses it:
  // commander reads a program option after the subcommand too, where `exec -C` and `sandbox -C` are
  // the subcommands' own (and `exec --search` is no option, as in Codex).
  const { cd, argv } = takeTopLevelFlags(given);
  const io = cd === undefined ? givenIo : { ...givenIo, cwd: path.resolve(givenIo.cwd, cd) };
  let exitCode = 0;
  const program = await buildProgram(argv, io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    // Typed failures (config, rollout, user input, sandbox, file system) carry a stable `code` and a
    // message written for the user; anything else is a bug and keeps its stack trace. (ConfigError
    // has one too: checked by shape, so commands that load no config do not load @skein/config.)
    if (hasCode(error)) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

type AddCommand = (program: Command, io: ProgramIo, setExitCode: (code: number) => void) => void;

// Each subcommand's module, in help order, imported only when it is needed: their dependencies
// (core, app-server, sandboxing, exec-server) take hundreds of ms to compile, which `features list`
// or `exec-server` alone should not pay (issue #18).
const SUBCOMMANDS: readonly { readonly names: readonly string[]; readonly load: () => Promise<AddCommand> }[] = [
  { names: ['exec', 'e'], load: async () => (await import('./commands/exec.js')).addExecCommand },
  { names: ['sandbox'], load: async () => (await import('./commands/sandbox.js')).addSandboxCommand },
  { names: ['exec-server'], load: async () => (await import('./commands/exec-server.js')).addExecServerCommand },
  { names: ['app-server'], load: async () => (await import('./commands/app-server.js')).addAppServerCommand },
  { names: ['login', 'logout'], load: async () => (await import('./commands/login.js')).addLoginCommand },
  { names: ['thread'], load: async () => (await import('./commands/thread.js')).addThreadCommand },
  { names: ['plugin'], load: async () => (await import('./commands/plugin.js')).addPluginCommand },
];

/**
 * The subcommands `argv` needs: the one it names, or every one when it names none of them (the
 * program's help, `help`, an unknown command), so help and errors read as with the whole tree.
 */
function subcommandsFor(argv: readonly string[]): typeof SUBCOMMANDS {
  const name = firstOperand(argv);
  if (name === 'features') return [];
  const named = SUBCOMMANDS.filter(({ names }) => name !== undefined && names.includes(name));
  return named.length > 0 ? named : SUBCOMMANDS;
}

/** The subcommand name, found as the program's own parse finds it: past the global options and their values. */
function firstOperand(argv: readonly string[]): string | undefined {
  const probe = addGlobalOptions(new Command()).exitOverride().configureOutput({ writeErr: () => undefined });
  try {
    return probe.parseOptions([...argv]).operands[0];
  } catch {
    // A global option without its value: the real parse reports it.
    return undefined;
  }
}

/** Global options that take a value (the next argument, unless given as `--name=value`). */
const VALUED_GLOBALS = new Set(['-c', '--config', '--enable', '--disable', '-p', '--profile']);

/**
 * The `-C DIR` / `--cd DIR` / `--cd=DIR` before the subcommand (the last one wins), and argv without
 * it; a `--search` there becomes `-c web_search="live"`.
 */
function takeTopLevelFlags(argv: readonly string[]): { readonly cd: string | undefined; readonly argv: readonly string[] } {
  let cd: string | undefined;
  const kept: string[] = [];
  let index = 0;
  for (; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (!arg.startsWith('-') || arg === '--') break;
    if (arg.startsWith('--cd=')) cd = arg.slice('--cd='.length);
    else if ((arg === '-C' || arg === '--cd') && index + 1 < argv.length) cd = argv[++index];
    else if (arg === '--search') kept.push('-c', 'web_search="live"');
    else {
      kept.push(arg);
      if (VALUED_GLOBALS.has(arg) && index + 1 < argv.length) kept.push(argv[++index]!);
    }
  }
  return { cd, argv: [...kept, ...argv.slice(index)] };
}

async function buildProgram(argv: readonly string[], io: ProgramIo, setExitCode: (code: number) => void): Promise<Command> {
  const program = addGlobalOptions(new Command('skein'))
    .description('A TypeScript runtime for coding agents, compatible with OpenAI Codex')
    .version(VERSION_LINE, '-V, --version', 'print the version of skein and of the Codex it is compatible with')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    // A subcommand's help lists the global -c, --enable, -p… it accepts too.
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    .addHelpText('after', '\nBefore the command:\n  -C, --cd <dir>  run the command as if started in <dir>\n  --search        offer the model live web search (same as -c web_search="live")');

  const features = program.command('features').description('inspect feature flags');
  features
    .command('list')
    .description('list every feature flag with its stage and effective value')
    .action(async (_options: unknown, command: Command) => {
      // Imported here, as the other subcommands are: @skein/features is only for this one.
      const { printFeatureList } = await import('./commands/features-list.js');
      await printFeatureList(command.optsWithGlobals<GlobalOptions>(), io);
    });

  program
    .command('debug')
    .description('tools for looking inside Skein')
    .command('models')
    .description('print the model catalog as JSON, in the shape `codex debug models` prints')
    // Skein's catalog is built in, never refreshed: `--bundled` (Codex's "skip the refresh") changes nothing.
    .option('--bundled', 'print the catalog built into this binary (the only one Skein has)')
    .action(async () => {
      const { formatModelCatalog } = await import('./commands/debug-models.js');
      io.stdout(`${formatModelCatalog()}\n`);
    });

  const adders = await Promise.all(subcommandsFor(argv).map(({ load }) => load()));
  for (const add of adders) add(program, io, setExitCode);

  return program;
}

function hasCode(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}
