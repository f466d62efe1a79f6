// The turn's diff: what the turn's patches changed so far, as one git-style unified diff from each
// file's content before the turn's first patch touched it to its content now (`turn/diff/updated`,
// as Codex 0.171.0 sends it: `diff --git`, `index <blob>..<blob>`, new and deleted file modes, hunks
// with three lines of context, files in path order). A file a later patch restored drops out.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PatchedFile } from '../tools/apply-patch/apply-patch-tool.js';
import { unifiedDiff } from '../tools/apply-patch/unified-diff.js';

/** Files beyond this many are left out of the diff (it says how many). */
export const MAX_TURN_DIFF_FILES = 500;
/** A file larger than this (before or after) is shown as changed without its lines. */
export const MAX_TURN_DIFF_FILE_BYTES = 1024 * 1024;

const ZERO_BLOB = '0'.repeat(40);
const decoder = new TextDecoder();

/** Tracks one turn's patched files and renders the turn's diff. */
export class TurnDiffTracker {
  #turnId: string | undefined;
  /** Where the turn's paths are shown from: the cwd of its first patch. */
  #cwd = '';
  /** Per path: the content before the turn first touched it, and now. */
  readonly #files = new Map<string, { readonly original: Uint8Array | null; current: Uint8Array | null }>();

  /** Records what a successful patch of `turnId`, run in `cwd`, wrote; answers the turn's diff so far. */
  record(turnId: string, cwd: string, files: readonly PatchedFile[]): string {
    if (turnId !== this.#turnId) {
      this.#turnId = turnId;
      this.#cwd = cwd;
      this.#files.clear();
    }
    for (const file of files) {
      const known = this.#files.get(file.path);
      if (known === undefined) this.#files.set(file.path, { original: file.before, current: file.after });
      else known.current = file.after;
    }
    return this.diff();
  }

  /** The turn's diff: empty when nothing differs from the turn's start. */
  diff(): string {
    const base = this.#cwd;
    const changed = [...this.#files].filter(([, file]) => !sameBytes(file.original, file.current)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const shown = changed.slice(0, MAX_TURN_DIFF_FILES).map(([file, { original, current }]) => fileDiff(displayPath(base, file), original, current));
    const omitted = changed.length - shown.length;
    return shown.join('') + (omitted > 0 ? `# ${omitted} more changed files are not shown\n` : '');
  }
}

/** The path as git shows it: relative to the cwd when inside it, else as it is. */
function displayPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

/** Git's blob id of `bytes`. */
function blobId(bytes: Uint8Array | null): string {
  if (bytes === null) return ZERO_BLOB;
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

function fileDiff(name: string, before: Uint8Array | null, after: Uint8Array | null): string {
  const header = [`diff --git a/${name} b/${name}`];
  if (before === null) header.push('new file mode 100644');
  if (after === null) header.push('deleted file mode 100644');
  header.push(`index ${blobId(before)}..${blobId(after)}`);
  header.push(before === null ? '--- /dev/null' : `--- a/${name}`);
  header.push(after === null ? '+++ /dev/null' : `+++ b/${name}`);
  if ((before?.byteLength ?? 0) > MAX_TURN_DIFF_FILE_BYTES || (after?.byteLength ?? 0) > MAX_TURN_DIFF_FILE_BYTES) {
    return `${header.slice(0, -2).join('\n')}\nBinary files differ\n`;
  }
  return `${header.join('\n')}\n${unifiedDiff(before === null ? '' : decoder.decode(before), after === null ? '' : decoder.decode(after), 3)}`;
}
