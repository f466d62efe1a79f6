// The changes a review looks at, gathered with git on the thread's primary environment (through its
// own process runner, so a remote executor's repository is read there, under the thread's sandbox).
// The patch is bounded: past MAX_REVIEW_DIFF_BYTES it is cut at a line and the prompt says so.
import type { ReviewTarget } from '@skein/protocol';
import type { CaptureCommandOptions, CommandCapture } from '../session/command-capture.js';
import { ReviewError, type ReviewErrorCode } from './review-error.js';

/** Bytes of patch a review prompt carries; the rest is left for the model to read with git itself. */
export const MAX_REVIEW_DIFF_BYTES = 256 * 1024;
/** How long one git command may take. */
const GIT_TIMEOUT_MS = 30_000;
/** Room for git's own messages beside a patch capture. */
const GIT_MESSAGE_BYTES = 64 * 1024;
/** Git's empty tree: what a repository without commits is compared against. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/**
 * Git run for reading only: no optional index lock (the sandbox keeps `.git` read-only), no
 * prompts, no pager, no colour or external diff drivers, paths as they are, messages untranslated.
 */
const GIT_ENV = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } as const;
const GIT = ['git', '--no-pager', '-c', 'core.quotePath=false', '-c', 'color.ui=never'] as const;
const DIFF_OPTIONS = ['--no-color', '--no-ext-diff', '--no-textconv'] as const;

/** Runs a command on the thread's primary environment (the thread handle's `captureCommand`). */
export type CaptureOnEnvironment = (argv: readonly string[], options: CaptureCommandOptions) => Promise<CommandCapture>;

/** The changes under review. */
export interface ReviewChanges {
  /** The repository's work tree, a native path on the environment (patch paths are relative to it). */
  readonly root: string;
  /** The unified diff (possibly cut; see `truncated`). */
  readonly patch: string;
  /** The patch passed MAX_REVIEW_DIFF_BYTES and was cut at a line. */
  readonly truncated: boolean;
  /** What the patch compares against: `HEAD`, the merge base's sha, the commit's parent. */
  readonly base: string;
  /** For a commit: its full sha and subject. */
  readonly commit?: { readonly sha: string; readonly subject: string };
  /** Untracked files the patch could not show (it was cut before them). */
  readonly untrackedLeftOut: readonly string[];
}

/**
 * Gathers what `target` reviews in `cwd` (a native path on the environment). Throws a ReviewError when
 * git cannot run there, the cwd is not in a repository, the branch or commit is unknown, or there is
 * nothing to review. A custom target has no diff: undefined.
 */
export async function gatherReviewChanges(capture: CaptureOnEnvironment, target: ReviewTarget, cwd: string): Promise<ReviewChanges | undefined> {
  if (target.type === 'custom') return undefined;
  const git = new GitReader(capture, cwd);
  const toplevel = await git.run(['rev-parse', '--show-toplevel']);
  const root = toplevel.stdout.trim();
  if (toplevel.exitCode !== 0 || root === '') fail('NotARepository', `cannot review: ${cwd} is not inside a git work tree`);
  switch (target.type) {
    case 'uncommittedChanges':
      return { root, ...(await uncommittedChanges(git)) };
    case 'baseBranch':
      return { root, ...(await branchChanges(git, target.branch)) };
    case 'commit':
      return { root, ...(await commitChanges(git, target.sha)) };
    default: {
      const unknown: never = target;
      throw new Error(`unknown review target ${JSON.stringify(unknown)}`);
    }
  }
}

/** Staged, unstaged and untracked changes against HEAD (the empty tree before the first commit). */
async function uncommittedChanges(git: GitReader): Promise<Omit<ReviewChanges, 'root'>> {
  const head = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD']);
  const base = head.exitCode === 0 ? 'HEAD' : EMPTY_TREE;
  const patch = new PatchBuffer();
  patch.add(await git.diff(['diff', ...DIFF_OPTIONS, base, '--'], patch.room));
  const listed = await git.run(['ls-files', '--others', '--exclude-standard', '-z']);
  if (listed.exitCode !== 0) fail('GitFailed', `cannot review: ${gitReason(listed)}`);
  const untracked = listed.stdout.split('\0').filter((path) => path !== '');
  const leftOut: string[] = [];
  for (const path of untracked) {
    if (patch.full) {
      leftOut.push(path);
      continue;
    }
    // `--no-index` exits 1 when the files differ, which a new file always does. One git cannot show
    // (a nested repository, an unreadable file) is named instead of failing the review.
    const shown = await git.diff(['diff', ...DIFF_OPTIONS, '--no-index', '--', '/dev/null', path], patch.room, [0, 1], false);
    patch.add(shown ?? { text: `Untracked ${path}: git could not show it.\n`, truncated: false });
  }
  if (patch.text.trim() === '' && leftOut.length === 0) fail('NothingToReview', 'nothing to review: the working tree has no changes against HEAD');
  return { patch: patch.text, truncated: patch.full, base: head.exitCode === 0 ? 'HEAD' : 'the empty tree (no commits yet)', untrackedLeftOut: leftOut };
}

/** The working tree against its merge base with `branch`. */
async function branchChanges(git: GitReader, branch: string): Promise<Omit<ReviewChanges, 'root'>> {
  const mergeBase = await git.run(['merge-base', '--end-of-options', 'HEAD', branch]);
  if (mergeBase.exitCode !== 0) {
    fail('UnknownTarget', mergeBase.stderr.trim() === '' ? `cannot review against '${branch}': it has no common ancestor with HEAD` : `cannot review against '${branch}': ${gitReason(mergeBase)}`);
  }
  const base = mergeBase.stdout.trim();
  const patch = new PatchBuffer();
  patch.add(await git.diff(['diff', ...DIFF_OPTIONS, base, '--'], patch.room));
  if (patch.text.trim() === '') fail('NothingToReview', `nothing to review: no changes against '${branch}' (merge base ${base.slice(0, 7)})`);
  return { patch: patch.text, truncated: patch.full, base, untrackedLeftOut: [] };
}

/** The patch one commit introduced. */
async function commitChanges(git: GitReader, sha: string): Promise<Omit<ReviewChanges, 'root'>> {
  const header = await git.run(['show', '-s', '--format=%H%x00%s', '--end-of-options', sha, '--']);
  if (header.exitCode !== 0) fail('UnknownTarget', `cannot review commit ${sha}: ${gitReason(header)}`);
  const [full = sha, subject = ''] = header.stdout.trim().split('\0');
  const patch = new PatchBuffer();
  patch.add(await git.diff(['show', ...DIFF_OPTIONS, '--format=', '--end-of-options', full, '--'], patch.room));
  if (patch.text.trim() === '') fail('NothingToReview', `nothing to review: commit ${full.slice(0, 7)} changes no files`);
  return { patch: patch.text, truncated: patch.full, base: `${full.slice(0, 7)}'s parent`, commit: { sha: full, subject }, untrackedLeftOut: [] };
}

/** Git's reason for a failure: its last `fatal:`/`error:` line, without the prefix. */
function gitReason(capture: CommandCapture): string {
  const lines = capture.stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const reason = lines.findLast((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1) ?? `git exited with ${capture.exitCode ?? 'no status'}`;
  return reason.replace(/^(fatal|error):\s*/, '');
}

/** A patch gathered piece by piece within MAX_REVIEW_DIFF_BYTES. */
class PatchBuffer {
  #parts: string[] = [];
  #bytes = 0;
  #full = false;

  /** Bytes left before the bound. */
  get room(): number {
    return MAX_REVIEW_DIFF_BYTES - this.#bytes;
  }

  /** Whether the bound was reached (the patch was cut). */
  get full(): boolean {
    return this.#full;
  }

  get text(): string {
    return this.#parts.join('');
  }

  /** Adds a piece; one cut at the bound keeps its whole lines only. */
  add(piece: { readonly text: string; readonly truncated: boolean }): void {
    let text = piece.text;
    if (piece.truncated || Buffer.byteLength(text) > this.room) {
      this.#full = true;
      text = Buffer.from(text).subarray(0, Math.max(0, this.room)).toString('utf8');
      const lastLine = text.lastIndexOf('\n');
      text = lastLine < 0 ? '' : text.slice(0, lastLine + 1);
    }
    this.#parts.push(text);
    this.#bytes += Buffer.byteLength(text);
  }
}

function fail(code: ReviewErrorCode, message: string): never {
  throw new ReviewError(code, message);
}

/** Git commands in one directory of the environment; failing to run git at all stops the review. */
class GitReader {
  constructor(
    private readonly capture: CaptureOnEnvironment,
    private readonly cwd: string,
  ) {}

  async run(args: readonly string[], maxOutputBytes = GIT_MESSAGE_BYTES): Promise<CommandCapture> {
    let result: CommandCapture;
    try {
      result = await this.capture([...GIT, ...args], { env: GIT_ENV, maxOutputBytes, timeoutMs: GIT_TIMEOUT_MS });
    } catch (error) {
      fail('GitFailed', `cannot review: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (result.failure !== null) fail('GitFailed', `cannot review: git could not run in ${this.cwd}: ${result.failure}`);
    if (result.timedOut) fail('GitFailed', `cannot review: git ${args[0] ?? ''} took longer than ${GIT_TIMEOUT_MS / 1000}s in ${this.cwd}`);
    return result;
  }

  /**
   * A patch-printing command, its output bounded by `room` (a cut patch is no failure). When it
   * fails: throws a ReviewError, or answers undefined when `required` is false.
   */
  async diff(args: readonly string[], room: number, okExits?: readonly number[]): Promise<{ readonly text: string; readonly truncated: boolean }>;
  async diff(args: readonly string[], room: number, okExits: readonly number[], required: false): Promise<{ readonly text: string; readonly truncated: boolean } | undefined>;
  async diff(args: readonly string[], room: number, okExits: readonly number[] = [0], required = true): Promise<{ readonly text: string; readonly truncated: boolean } | undefined> {
    // The bound counts stdout and stderr together: room for git's messages on top of the patch.
    const result = await this.run(args, room + 1 + GIT_MESSAGE_BYTES);
    const failed = !result.truncated && (result.exitCode === null || !okExits.includes(result.exitCode));
    if (failed && required) fail('GitFailed', `cannot review: ${gitReason(result)}`);
    return failed ? undefined : { text: result.stdout, truncated: result.truncated };
  }
}
