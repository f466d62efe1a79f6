// `skein exec`: run one turn non-interactively, as `codex exec` does — a new thread, or `exec resume
// [ID | --last]` — printing the final message (or, with `--json`, the `exec --json` event stream).
// Its flags are `codex exec`'s where they apply (all the ones `@openai/codex-sdk` passes), so the SDK
// and scripts written for Codex drive Skein unchanged.
import path from 'node:path';
import { hostSkills } from '@skein/app-server/host-skills';
import { openThreadStore } from '@skein/app-server/thread-store';
import { ConfigError, parseConfigOverride, readSavedApiKey, type Config } from '@skein/config';
import {
  extensionFlagSources,
  loadExtensions,
  localHostFacts,
  localThreadEnvironment,
  localUserAgentHost,
  readInstallationId,
  REVIEW_OUTPUT_SCHEMA,
  reviewHint,
  ThreadManager,
  userAgent,
  type CoreEvent,
  type ThreadEnvironment,
  type ThreadHandle,
} from '@skein/core';
import type { ExtensionRegistry } from '@skein/extension-api';
import { CODEX_VERSION, type UserInput } from '@skein/protocol';
import { collectGitInfo, type ThreadStore, type GitInfo } from '@skein/rollout';
import { BYPASS_HOOK_TRUST_WARNING } from '@skein/hooks';
import { sandboxStartupWarning } from '@skein/sandboxing';
import { Option, type Command } from 'commander';
import { ExecError } from '../exec/exec-error.js';
import { checkImage, promptFrom, readJson } from '../exec/exec-input.js';
import { execRevert, type ExecRevertOptions } from '../exec/exec-revert.js';
import { ExecEventMapper } from '../exec/exec-event-mapper.js';
import { connectRemoteEnvironment, execServerUrlFrom, type RemoteExecEnvironment } from '../exec/exec-server-environment.js';
import { ReviewAnswer, reviewInput, reviewTargetFrom, ReviewTargetError, type ReviewTargetFlags } from '../exec/exec-review.js';
import { requireGitRepository } from '../exec/git-repo-check.js';
import { HumanOutput, useColor, type ColorMode } from '../exec/human-output.js';
import { writeLastMessageFile } from '../exec/last-message-file.js';
import { loadConfigFor, type GlobalOptions, type ProcessContext } from '../global-options.js';
import { SKEIN_VERSION } from '../version.js';

/** Where `exec` reads and writes. */
export interface ExecIo extends ProcessContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The prompt when none is given on the command line (or it is `-`). */
  readonly readStdin: () => Promise<string>;
  /** True when stdin is a terminal: then a prompt given as an argument is not followed by piped input. */
  readonly stdinIsTerminal?: boolean | undefined;
  /** True when stderr is a terminal, where `--color auto` styles the progress output. */
  readonly stderrIsTerminal?: boolean | undefined;
  readonly onTermination?: ((cleanup: () => Promise<void>) => () => void) | undefined;
  /** Called before anything else runs: the process ends with this one turn (see bin.ts). */
  readonly shortLived?: (() => void) | undefined;
}

interface ExecOptions {
  readonly json?: boolean;
  readonly experimentalJson?: boolean;
  readonly model?: string;
  readonly sandbox?: 'read-only' | 'workspace-write' | 'danger-full-access';
  readonly cd?: string;
  readonly skipGitRepoCheck?: boolean;
  readonly outputSchema?: string;
  readonly image: string[];
  readonly addDir: string[];
  readonly extension: string[];
  readonly threadSource?: string;
  readonly last?: boolean;
  readonly outputLastMessage?: string;
  readonly ephemeral?: boolean;
  readonly color: ColorMode;
  readonly dangerouslyBypassApprovalsAndSandbox?: boolean;
}

/** `exec` options with `exec resume`'s revert flags. */
type ExecRunOptions = ExecOptions & ExecRevertOptions;

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Adds `exec` (and `exec resume`) to `program`; `setExitCode` receives 1 when the turn fails. */
export function addExecCommand(program: Command, io: ExecIo, setExitCode: (code: number) => void): void {
  const exec = program
    .command('exec')
    .alias('e')
    .description('run one turn non-interactively (as `codex exec`)')
    .argument('[prompt]', 'the prompt; read from stdin when absent or `-`')
    .option('--json', 'print the event stream as JSON lines')
    .addOption(new Option('--experimental-json', 'same as --json').hideHelp())
    .option('-m, --model <model>', 'model to use')
    .addOption(new Option('-s, --sandbox <mode>', 'sandbox mode').choices(['read-only', 'workspace-write', 'danger-full-access']))
    .addOption(
      new Option('--dangerously-bypass-approvals-and-sandbox', 'run commands unconfined and without asking; only inside an environment that is itself sandboxed').conflicts('sandbox'),
    )
    .option('-C, --cd <dir>', 'working directory of the thread')
    .option('--skip-git-repo-check', 'allow running outside a git repository')
    .option('--output-schema <file>', 'JSON Schema file the final answer must follow')
    .option('-i, --image <file>', 'attach an image (repeatable)', collect, [])
    .option('--add-dir <dir>', 'an extra writable directory (repeatable)', collect, [])
    .option('--extension <spec>', 'load an extension: a package name or a path (repeatable; adds to [skein] extensions)', collect, [])
    .option('--thread-source <source>', 'who started the thread (recorded in the rollout)')
    .option('-o, --output-last-message <file>', 'also write the final agent message to this file')
    .option('--ephemeral', 'write no rollout file: the thread cannot be resumed')
    .addOption(new Option('--color <when>', 'style the progress output').choices(['always', 'never', 'auto']).default('auto'))
    // @openai/codex-sdk passes it for OpenAI's access programs; it has no meaning for Skein's providers.
    .addOption(new Option('--cyber-access-program <program>').hideHelp());
  exec.action((prompt: string | undefined, options: ExecOptions, self: Command) =>
    runExec({ prompt, resume: undefined }, options, self.optsWithGlobals<GlobalOptions>(), io, setExitCode),
  );
  exec
    .command('resume')
    .description('continue a thread: by id, or the most recent with --last')
    .argument('[id]', 'thread id')
    .argument('[prompt]', 'the prompt; read from stdin when absent or `-`')
    .option('--last', 'resume the most recent thread')
    .option('--extension <spec>', 'load an extension: a package name or a path (repeatable)', collect, [])
    .option('--json', 'print the event stream as JSON lines')
    .addOption(new Option('--experimental-json', 'same as --json').hideHelp())
    .option('-i, --image <file>', 'attach an image (repeatable)', collect, [])
    .option('-o, --output-last-message <file>', 'also write the final agent message to this file')
    .option('--revert <turn-id>', 'first drop this turn and every later one, and put back the files they changed; with no prompt, only revert')
    .option('--keep-files', 'with --revert: drop the turns but leave the files as they are')
    .option('--force', 'with --revert: also overwrite files changed since the turn that wrote them')
    .action((id: string | undefined, prompt: string | undefined, options: ExecOptions, self: Command) => {
      // With --last the only positional is the prompt.
      const target = options.last === true ? { prompt: id, resume: 'last' as const } : { prompt, resume: id };
      if (target.resume === undefined) self.error('error: give a thread id or --last', { exitCode: 2 });
      return runExec(target, withParentOptions(self, options), self.optsWithGlobals<GlobalOptions>(), io, setExitCode);
    });
  exec
    .command('review')
    .description('review the changes in the current repository (as `codex exec review`)')
    .argument('[prompt]', 'custom review instructions; read from stdin when `-`')
    .option('--uncommitted', 'review staged, unstaged and untracked changes')
    .option('--base <branch>', 'review the changes against a base branch')
    .option('--commit <sha>', 'review the changes a commit introduced')
    .option('--title <title>', "the commit's title, shown in the review's summary (with --commit)")
    .option('-m, --model <model>', 'model to use')
    .option('--skip-git-repo-check', 'allow running outside a git repository')
    .option('--extension <spec>', 'load an extension: a package name or a path (repeatable)', collect, [])
    .option('--json', 'print the event stream as JSON lines')
    .addOption(new Option('--experimental-json', 'same as --json').hideHelp())
    .option('-o, --output-last-message <file>', 'also write the review to this file')
    .option('--ephemeral', 'write no rollout file: the thread cannot be resumed')
    .action((prompt: string | undefined, options: Omit<ExecOptions, 'image'> & ReviewTargetFlags, self: Command) => {
      try {
        // The target is checked before stdin is read: a usage mistake never waits for input.
        reviewTargetFrom(options, prompt === undefined ? undefined : 'instructions');
      } catch (error) {
        if (error instanceof ReviewTargetError && error.code === 'ConflictingReviewFlags') self.error(`error: ${error.message}`, { exitCode: 2 });
        throw error;
      }
      return runExec({ prompt, resume: undefined, review: options }, withParentOptions(self, { ...options, image: [] }), self.optsWithGlobals<GlobalOptions>(), io, setExitCode);
    });
}

/** A subcommand's options over the ones given to `exec` before it (`exec --json review`). */
function withParentOptions(self: Command, options: ExecOptions): ExecOptions {
  const parent = self.parent?.opts<ExecOptions>() ?? { image: [], addDir: [], extension: [], color: 'auto' };
  return { ...parent, ...options, image: [...parent.image, ...options.image], extension: [...parent.extension, ...options.extension] };
}

async function runExec(
  target: { readonly prompt: string | undefined; readonly resume: string | undefined; readonly review?: ReviewTargetFlags },
  options: ExecRunOptions,
  globals: GlobalOptions,
  io: ExecIo,
  setExitCode: (code: number) => void,
): Promise<void> {
  io.shortLived?.();
  const cwd = options.cd === undefined ? io.cwd : path.resolve(io.cwd, options.cd);
  const bypass = options.dangerouslyBypassApprovalsAndSandbox === true;
  const overrides = [
    ...globals.config,
    ...(options.model === undefined ? [] : [`model=${JSON.stringify(options.model)}`]),
    ...(options.sandbox === undefined ? [] : [`sandbox_mode=${JSON.stringify(options.sandbox)}`]),
    ...(bypass ? ['sandbox_mode="danger-full-access"'] : []),
    // No one is there to answer an approval request, so exec never asks (as `codex exec`, whatever
    // config.toml says); the sandbox alone bounds what commands may do.
    'approval_policy="never"',
  ];
  let { config, warnings } = await loadConfigFor({ ...globals, config: overrides }, { ...io, cwd });
  if (options.addDir.length > 0) {
    // --add-dir adds to the configured writable roots; a plain -c would replace the list.
    const roots = [...config.sandboxWorkspaceWrite.writableRoots, ...options.addDir.map((dir) => path.resolve(cwd, dir))];
    ({ config, warnings } = await loadConfigFor({ ...globals, config: [...overrides, `sandbox_workspace_write.writable_roots=${JSON.stringify(roots)}`] }, { ...io, cwd }));
  }
  for (const warning of warnings) io.stderr(`warning: ${warning.message}\n`);
  refuseUntrustedApprovals(config, globals.config);
  const gitInfo = gitInfoFor(config.cwd, target.resume === undefined && options.ephemeral !== true);
  // CODEX_EXEC_SERVER_URL: commands and patches run on that exec-server; a bad URL stops here.
  const execServerUrl = execServerUrlFrom(io.env);
  // Asked while the rest starts; a sandbox that cannot run here is said once, before the turn.
  const sandboxWarning = execServerUrl === undefined ? sandboxStartupWarning(config.sandboxMode !== 'danger-full-access', { env: io.env, cwd: config.cwd }) : undefined;
  if (options.skipGitRepoCheck !== true) requireGitRepository(cwd);
  if (options.ephemeral === true && target.resume !== undefined) {
    throw new ExecError('EphemeralResume', '--ephemeral starts a thread that is never written; it cannot be combined with resume');
  }
  const outputSchema = options.outputSchema === undefined ? undefined : await readJson(path.resolve(io.cwd, options.outputSchema));
  // A review's prompt is its instructions (if any); what the model receives is built once the thread runs.
  const review = target.review === undefined ? undefined : reviewTargetFrom(target.review, target.prompt === undefined ? undefined : await promptFrom(target.prompt, io));
  // `resume --revert` without a prompt only reverts: nothing is read from stdin.
  const revertOnly = options.revert !== undefined && target.prompt === undefined;
  if ((options.keepFiles === true || options.force === true) && options.revert === undefined) throw new ExecError('RevertFlags', '--keep-files and --force go with --revert <turn-id>');
  const prompt = review === undefined ? (revertOnly ? '' : await promptFrom(target.prompt, io)) : reviewHint(review);
  for (const image of options.image) await checkImage(path.resolve(cwd, image));
  // A spec that fails to load is a warning and the turn runs without it; --strict-config makes it an error.
  // Skills are installed by default; one turn needs no file watcher.
  const skills = hostSkills(config, () => Promise.resolve(config), { watch: false });
  const extensions = await loadExtensions([...config.extensions, ...extensionFlagSources(options.extension, io.cwd)], { strict: globals.strictConfig, builtIn: skills.extensions, importModule: io.importModule });
  for (const problem of extensions.problems) io.stderr(`warning: ${problem.message}\n`);
  let input: UserInput[] = [
    // As typed: the model is told the path the user gave (resolved against the thread's cwd when read).
    ...options.image.map((image): UserInput => ({ type: 'localImage', path: image })),
    { type: 'text', text: prompt, text_elements: [] },
  ];

  // The store tells the extensions' fragments from user turns when it reads a thread.
  const store = await openThreadStore(config.threadStore, {
    home: config.homeDir,
    env: io.env,
    contextFragments: extensions.registry.contextFragments,
    gitInfo,
    reconcileOnOpen: target.resume !== undefined,
    onWarning: (message) => io.stderr(`warning: ${message}\n`),
  });
  let remote: RemoteExecEnvironment | undefined;
  try {
    // Connected before the thread starts, so an unreachable exec-server fails before any model request.
    remote = execServerUrl === undefined ? undefined : await connectRemoteEnvironment(execServerUrl);
    if (globals.dangerouslyBypassHookTrust) io.stderr(`warning: ${BYPASS_HOOK_TRUST_WARNING}\n`);
    const threads = managerFor(config, extensions.registry, store, io, {
      bypassHookTrust: globals.dangerouslyBypassHookTrust,
      threadSource: options.threadSource,
      remote: remote?.environment,
      savedApiKey: await savedApiKeyOf(config, io),
      installationId: await readInstallationId(config.homeDir),
    });
    const json = options.json === true || options.experimentalJson === true;
    const sandboxProblem = await sandboxWarning;
    if (sandboxProblem !== undefined) io.stderr(`warning: ${sandboxProblem}\n`);
    const mapper = new ExecEventMapper();
    const human = new HumanOutput({ write: io.stderr, color: useColor(options.color, io.stderrIsTerminal === true, io.env) });
    // Once a signal ends the run, nothing more is printed: Codex's exec exits 128+signal without a
    // closing event, and @openai/codex-sdk raises AbortError only when no `turn.failed` came first.
    let terminating = false;
    const print = (event: CoreEvent) => {
      if (terminating) return;
      if (!json) human.event(event);
      else {
        if (event.type === 'warning') io.stderr(`warning: ${event.message}\n`);
        for (const line of mapper.map(event)) io.stdout(`${JSON.stringify(line)}\n`);
      }
    };
    const reviewAnswer = review === undefined ? undefined : new ReviewAnswer(print);
    const onEvent = reviewAnswer?.onEvent ?? print;
    const handle: ThreadHandle =
      target.resume === undefined
        ? await threads.start({ onEvent, ephemeral: options.ephemeral === true })
        : await threads.resume(target.resume === 'last' ? await lastThreadId(threads, cwd) : target.resume, { onEvent });
    if (review !== undefined) {
      // The changes are read on the thread's environment before anything is printed: a target git
      // cannot show ends the run here, with only the error and no thread left behind.
      input = await reviewInput(handle, review).catch(async (error: unknown) => {
        await handle.close();
        if (!handle.ephemeral) await store.delete(handle.threadId);
        throw error;
      });
    }
    if (json) io.stdout(`${JSON.stringify(mapper.threadStarted(handle.threadId)[0])}\n`);
    else {
      human.banner({ version: SKEIN_VERSION, config, threadId: handle.threadId, rolloutPath: handle.path });
      if (!revertOnly) human.prompt(prompt);
    }
    // Killed or interrupted: stop the turn, kill its commands and close the rollout before exiting.
    const unregister = io.onTermination?.(async () => {
      terminating = true;
      if (handle.activeTurnId !== undefined) handle.interrupt();
      await handle.close();
    });
    try {
      if (options.revert !== undefined) {
        const reverted = await execRevert(handle, { ...options, revert: options.revert });
        for (const line of reverted.lines) io.stderr(`${line}\n`);
        if (!reverted.complete) setExitCode(1);
        if (revertOnly) return;
      }
      const schema = review === undefined ? outputSchema : REVIEW_OUTPUT_SCHEMA;
      const outcome = await handle.runTurn(input, schema === undefined ? {} : { outputSchema: schema });
      const completed = outcome.status === 'completed';
      const lastMessage = completed ? (reviewAnswer?.text ?? outcome.lastAgentMessage) : undefined;
      if (!json && lastMessage !== undefined) io.stdout(`${lastMessage}\n`);
      if (options.outputLastMessage !== undefined) {
        const file = path.resolve(io.cwd, options.outputLastMessage);
        // Scripts read this file after the run: it always exists then, empty when there was no answer.
        if (completed && lastMessage === undefined) io.stderr(`warning: the turn ended without an agent message; ${file} is empty\n`);
        await writeLastMessageFile(file, lastMessage ?? '');
      }
      if (!completed) setExitCode(1);
    } finally {
      unregister?.();
      await handle.close();
    }
  } finally {
    await store.close();
    await skills.close();
    await remote?.close();
  }
}

/**
 * Git facts for new threads' session_meta. For a thread about to start in `cwd`, git runs from now
 * on, while the store opens and the extensions load, not after them on the way to the first model
 * request (issue #18).
 */
function gitInfoFor(cwd: string, startsThread: boolean): (dir: string) => Promise<GitInfo | undefined> {
  const early = startsThread ? collectGitInfo(cwd) : undefined;
  return (dir) => (dir === cwd && early !== undefined ? early : collectGitInfo(dir));
}

/** The key `skein login --with-api-key` (or Codex's) saved; a damaged auth.json is a warning, not a stop. */
async function savedApiKeyOf(config: Config, io: ExecIo): Promise<string | undefined> {
  try {
    return await readSavedApiKey(config.homeDir);
  } catch (error) {
    io.stderr(`warning: ${(error as Error).message}\n`);
    return undefined;
  }
}

/** What `exec`'s threads carry besides the config: who starts them, where they run, the saved key, the machine's id. */
interface ExecThreadFacts {
  readonly bypassHookTrust: boolean;
  readonly threadSource: string | undefined;
  readonly remote: ThreadEnvironment | undefined;
  readonly savedApiKey: string | undefined;
  readonly installationId: string;
}

function managerFor(config: Config, extensions: ExtensionRegistry, store: ThreadStore, io: ExecIo, facts: ExecThreadFacts): ThreadManager {
  // A wrapper names itself as Codex lets it (CODEX_INTERNAL_ORIGINATOR_OVERRIDE): request header and session_meta.
  const originator = io.env['CODEX_INTERNAL_ORIGINATOR_OVERRIDE']?.trim() || 'skein_exec';
  return new ThreadManager({
    savedApiKey: () => facts.savedApiKey,
    // Commands and patches act on this machine (or the CODEX_EXEC_SERVER_URL exec-server), confined by the thread's sandbox settings.
    environment: facts.remote ?? localThreadEnvironment({ cwd: config.cwd, env: io.env }),
    // As Codex's exec: the user starts the thread, and each turn says exec started it.
    threadSource: facts.threadSource ?? 'user',
    clientTurnTrigger: 'exec',
    installationId: facts.installationId,
    store,
    config,
    extensions,
    env: io.env,
    host: localHostFacts(io.env),
    bypassHookTrust: facts.bypassHookTrust,
    originator,
    userAgent: userAgent({ name: originator, version: CODEX_VERSION }, CODEX_VERSION, localUserAgentHost(io.env)),
    source: 'exec',
    // Codex clients read the rollout's `cli_version` to know what the file holds: the formats are Codex's.
    cliVersion: CODEX_VERSION,
  });
}

async function lastThreadId(threads: ThreadManager, cwd: string): Promise<string> {
  const newest = (await threads.list({ limit: 1, cwd })).data[0];
  if (newest === undefined) throw new ConfigError('InvalidValue', 'exec resume --last', undefined, `no thread has run in ${cwd} yet`);
  return newest.id;
}


/**
 * Codex 0.171.0's exec refuses `approval_policy = "untrusted"` before it starts (probed), whether
 * config.toml or a `-c` sets it, rather than run without the approvals the user asked for: exec
 * itself answers every approval with "never". The user's own `-c` wins over the files, as in config.
 */
function refuseUntrustedApprovals(config: Config, cliOverrides: readonly string[]): void {
  const fromFlags = cliOverrides.map(parseConfigOverride).findLast((override) => override.path.length === 1 && override.path[0] === 'approval_policy')?.value;
  const fromFiles = config.layers.findLast((layer) => layer.name.type !== 'sessionFlags' && Object.hasOwn(layer.table, 'approval_policy'))?.table['approval_policy'];
  if ((fromFlags ?? fromFiles) === 'untrusted') throw new ExecError('UnsupportedApprovalPolicy', 'approval_policy = "untrusted" is no longer supported; remove this setting');
}
