// Checkpoint operations over one environment: each runs one of checkpoint-scripts.ts on that
// environment's machine and parses what it printed. Nothing here knows about threads or turns.
import type { CheckpointSettings } from '@skein/config';
import type { CommandCapture } from '../session/command-capture.js';
import { DIFF_SCRIPT, GIT_ENVIRONMENT, NOT_A_WORKSPACE_EXIT, PATCH_SCRIPT, PRUNE_SCRIPT, RESTORE_PARTIAL_EXIT, RESTORE_SCRIPT, SNAPSHOT_SCRIPT, TOO_MANY_FILES_EXIT, WORKTREE_SCRIPT } from './checkpoint-scripts.js';

/** Runs a script with positional arguments and variables on the environment, in its cwd. */
export type CheckpointRunner = (script: string, args: readonly string[], env: Readonly<Record<string, string>>) => Promise<CommandCapture>;

/** A checkpoint operation that could not be carried out (the message says why, from git when it spoke). */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

/** Where a checkpoint's repository is: the work tree's own (`shadowDir` empty), or a private one for a folder outside git. */
export interface CheckpointPlace {
  readonly shadowDir: string;
}

/** A snapshot taken: the work tree's root (native path), the commit, and what was left out (paths from the root). */
export interface Snapshot {
  readonly root: string;
  readonly commit: string;
  /** Untracked entries over the caps: work the user may expect back. */
  readonly skipped: readonly string[];
  /** Ignored entries over the caps (build output, dependencies). */
  readonly skippedIgnored: readonly string[];
}

/** Why no snapshot could be taken: nothing to checkpoint here (no git, not a work tree, too many files). */
export interface SnapshotUnavailable {
  readonly unavailable: string;
}

/** What changed for one path between two commits. */
export type PathChange = 'A' | 'M' | 'D';

const SNAPSHOT_OUTPUT_BYTES = 16 * 1024 * 1024;
const OPERATION_TIMEOUT_MS = 120_000;

/** The checkpoint operations of one environment. */
export class GitCheckpoints {
  readonly #run: CheckpointRunner;
  readonly #place: CheckpointPlace;

  constructor(run: CheckpointRunner, place: CheckpointPlace) {
    this.#run = run;
    this.#place = place;
  }

  /** Snapshots the work tree into `ref`, pruning checkpoints under `prunePrefix` older than `settings.maxAgeDays`. */
  async snapshot(ref: string, settings: CheckpointSettings, options: { readonly message: string; readonly prunePrefix: string; readonly nowMs: number }): Promise<Snapshot | SnapshotUnavailable> {
    const capture = await this.#run(SNAPSHOT_SCRIPT, [], {
      ...this.#variables(),
      SKEIN_CP_REF: ref,
      SKEIN_CP_MAX_BYTES: String(settings.maxFileBytes),
      SKEIN_CP_MAX_DIR_FILES: String(settings.maxDirFiles),
      SKEIN_CP_MAX_WORKSPACE_FILES: String(settings.maxWorkspaceFiles),
      SKEIN_CP_MESSAGE: options.message,
      SKEIN_CP_PRUNE_PREFIX: options.prunePrefix,
      SKEIN_CP_PRUNE_BEFORE: String(Math.floor(options.nowMs / 1000 - settings.maxAgeDays * 86_400)),
    });
    if (capture.exitCode === NOT_A_WORKSPACE_EXIT || capture.exitCode === TOO_MANY_FILES_EXIT) return { unavailable: capture.stderr.trim() || 'nothing to checkpoint here' };
    const stdout = succeeded(capture, 'snapshot');
    const marker = stdout.indexOf('\n--skipped--\n');
    const ignoredMarker = stdout.lastIndexOf('\n--ignored--\n');
    const [root, commit] = stdout.slice(0, marker).split('\n');
    if (marker < 0 || ignoredMarker < marker || root === undefined || commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) throw new CheckpointError(`the snapshot printed nothing usable: ${stdout.slice(0, 200)}`);
    return {
      root,
      commit,
      skipped: nulList(stdout.slice(marker + '\n--skipped--\n'.length, ignoredMarker)),
      skippedIgnored: nulList(stdout.slice(ignoredMarker + '\n--ignored--\n'.length)),
    };
  }

  /** What differs between `from` and `to`, path by path (only `paths` when given). */
  async changes(from: string, to: string, paths?: readonly string[]): Promise<Map<string, PathChange>> {
    const changes = new Map<string, PathChange>();
    if (paths !== undefined && paths.length === 0) return changes;
    for (const chunk of chunksOf(paths)) {
      const fields = nulList(succeeded(await this.#run(DIFF_SCRIPT, [from, to, ...chunk.map(literal)], this.#variables()), 'diff'));
      for (let index = 0; index + 1 < fields.length; index += 2) {
        const status = (fields[index] as string).charAt(0);
        if (status === 'A' || status === 'M' || status === 'D') changes.set(fields[index + 1] as string, status);
        // A type change (a file became a link) is a rewrite.
        else if (status === 'T') changes.set(fields[index + 1] as string, 'M');
      }
    }
    return changes;
  }

  /** The unified diff from `from` to `to` for `paths`, per path. */
  async patches(from: string, to: string, paths: readonly string[]): Promise<Map<string, string>> {
    const patches = new Map<string, string>();
    if (paths.length === 0) return patches;
    for (const chunk of chunksOf(paths)) for (const [path, patch] of splitPatch(succeeded(await this.#run(PATCH_SCRIPT, [from, to, ...chunk.map(literal)], this.#variables()), 'diff'))) patches.set(path, patch);
    return patches;
  }

  /** Writes `write` from `source` (bytes and mode) and deletes `remove`; returns the paths it could not delete. */
  async restore(source: string, write: readonly string[], remove: readonly string[]): Promise<string[]> {
    const failed: string[] = [];
    const actions = [...write.map((path) => ['w', path]), ...remove.map((path) => ['d', path])];
    // Deletions first: a file the turns put where a folder was must go before the folder's files come back.
    actions.sort((left, right) => (left[0] === right[0] ? 0 : left[0] === 'd' ? -1 : 1));
    for (const chunk of chunksOf(actions)) {
      const capture = await this.#run(RESTORE_SCRIPT, [source, ...chunk.flat()], this.#variables());
      if (capture.exitCode === RESTORE_PARTIAL_EXIT) failed.push(...nulList(capture.stdout));
      else succeeded(capture, 'restore');
    }
    return failed;
  }

  /** A new worktree at `dest` (native) with `snapshot`'s files over its parent commit (itself when it has none). */
  async worktree(dest: string, snapshot: string): Promise<void> {
    const base = await this.#run('git rev-parse -q --verify "$1^" || echo "$1"', [snapshot], this.#variables());
    succeeded(await this.#run(WORKTREE_SCRIPT, [dest, succeeded(base, 'worktree').trim(), snapshot], this.#variables()), 'worktree');
  }

  /** Deletes every ref under `prefix`. */
  async prune(prefix: string): Promise<void> {
    const capture = await this.#run(PRUNE_SCRIPT, [prefix], this.#variables());
    if (capture.exitCode === NOT_A_WORKSPACE_EXIT) return;
    succeeded(capture, 'prune');
  }

  #variables(): Record<string, string> {
    return { ...GIT_ENVIRONMENT, SKEIN_CP_SHADOW_DIR: this.#place.shadowDir };
  }
}

/** Runs scripts with `/bin/sh -c` through a capture. */
export function shellRunner(capture: (argv: readonly string[], options: { readonly env: Readonly<Record<string, string>>; readonly maxOutputBytes: number; readonly timeoutMs: number }) => Promise<CommandCapture>): CheckpointRunner {
  return (script, args, env) => capture(['/bin/sh', '-c', script, 'skein-checkpoint', ...args], { env, maxOutputBytes: SNAPSHOT_OUTPUT_BYTES, timeoutMs: OPERATION_TIMEOUT_MS });
}

function succeeded(capture: CommandCapture, what: string): string {
  if (capture.failure !== null) throw new CheckpointError(`the checkpoint ${what} could not run: ${capture.failure}`);
  if (capture.timedOut) throw new CheckpointError(`the checkpoint ${what} took longer than ${OPERATION_TIMEOUT_MS / 1000} s`);
  if (capture.truncated) throw new CheckpointError(`the checkpoint ${what} printed more than ${SNAPSHOT_OUTPUT_BYTES} bytes`);
  if (capture.exitCode !== 0) throw new CheckpointError(`the checkpoint ${what} failed (exit ${String(capture.exitCode)}): ${capture.stderr.trim() || capture.stdout.trim()}`);
  return capture.stdout;
}

/** Paths per script run: far below any system's argument limit, however long the paths. */
const PATHS_PER_RUN = 500;

/** `items` in runs of {@link PATHS_PER_RUN}; no items (or none given) is one run with none. */
function chunksOf<T>(items: readonly T[] | undefined): T[][] {
  if (items === undefined || items.length === 0) return [[]];
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += PATHS_PER_RUN) chunks.push(items.slice(start, start + PATHS_PER_RUN));
  return chunks;
}

function nulList(text: string): string[] {
  return text.split('\0').filter((entry) => entry !== '');
}

/** A pathspec that matches exactly `path` from the top of the work tree. */
function literal(path: string): string {
  return `:(top,literal)${path}`;
}

/** `git diff` output cut per file; a header whose name git had to quote is matched by its unquoted form. */
function splitPatch(text: string): Map<string, string> {
  const patches = new Map<string, string>();
  for (const section of text.split(/^(?=diff --git )/m)) {
    const header = /^diff --git (?:"a\/((?:[^"\\]|\\.)*)"|a\/(\S.*?)) (?:"b\/|b\/)/.exec(section);
    if (header === null) continue;
    const path = header[1] === undefined ? (header[2] as string) : unquote(header[1]);
    patches.set(path, section.replace(/^diff --git [^\n]*\n/, ''));
  }
  return patches;
}

function unquote(text: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (char !== '\\') {
      bytes.push(...Buffer.from(char));
      continue;
    }
    const next = text.charAt(index + 1);
    const octal = /^[0-7]{3}/.exec(text.slice(index + 1));
    if (octal !== null) {
      bytes.push(parseInt(octal[0], 8));
      index += 3;
      continue;
    }
    bytes.push(({ n: 10, t: 9, '"': 34, '\\': 92 } as Record<string, number>)[next] ?? next.charCodeAt(0));
    index += 1;
  }
  return Buffer.from(bytes).toString('utf8');
}
