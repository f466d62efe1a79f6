// Turns a parsed patch into the exact file contents to write, reading the current files through the
// executor's filesystem. Nothing is written here, so a patch that does not fit fails before any change.
import { FileSystemError, type ExecutorFileSystem, type FileSystemSandboxContext } from '@skein/exec-server';
import { PathUri, PathUriError } from '@skein/protocol';
import type { Patch, UpdateChunk } from './patch.js';
import { seekSequence } from './seek-sequence.js';
import { TextFile, type Replacement } from './text-file.js';

/** Stable reasons a well-formed patch cannot be applied to the files as they are. */
export type PatchApplyErrorCode =
  | 'NoChanges'
  | 'InvalidPath'
  | 'FileNotFound'
  | 'NotAFile'
  | 'InvalidUtf8'
  | 'ContextNotFound'
  | 'LinesNotFound'
  | 'ReadFailed'
  | 'WriteFailed';

/** Why a patch could not be applied; names the file as written in the patch and, for an update, the change. */
export class PatchApplyError extends Error {
  override readonly name = 'PatchApplyError';
  readonly code: PatchApplyErrorCode;
  /** The file as the patch names it, when one is to blame. */
  readonly path: string | undefined;
  /** 1-based index of the `@@` change within the file's update, when one is to blame. */
  readonly hunk: number | undefined;
  /** 1-based patch line of that change (or of the file's header). */
  readonly line: number | undefined;

  constructor(code: PatchApplyErrorCode, message: string, where: { path?: string; hunk?: number; line?: number } = {}) {
    super(message);
    this.code = code;
    this.path = where.path;
    this.hunk = where.hunk;
    this.line = where.line;
  }
}

/** A file's bytes before a change, or null when it did not exist. */
export type PriorContents = Uint8Array | null;

/** One planned write, in patch order. `previous` is what the path held just before this change. */
export type FileChange =
  | { readonly kind: 'add'; readonly path: PathUri; readonly displayPath: string; readonly contents: string; readonly previous: PriorContents }
  | { readonly kind: 'delete'; readonly path: PathUri; readonly displayPath: string; readonly previous: Uint8Array }
  | {
      readonly kind: 'update';
      readonly path: PathUri;
      readonly displayPath: string;
      readonly contents: string;
      readonly previous: Uint8Array;
      /** Where the updated file goes instead; the source is removed. */
      readonly move: { readonly path: PathUri; readonly displayPath: string; readonly previous: PriorContents } | undefined;
    };

/** Options of {@link planPatch}. */
export interface PlanPatchOptions {
  /** Confines the reads like the turn's commands. */
  readonly sandbox?: FileSystemSandboxContext | null | undefined;
}

const encoder = new TextEncoder();

/**
 * Computes every change of `patch` against the files under `cwd`, applying hunks in order on an
 * in-memory view (a later hunk sees an earlier one's result, as when Codex applies them one by one).
 * Relative paths resolve against `cwd`; absolute ones are taken as they are. Like Codex, `..` is
 * allowed: confinement is the sandbox's job, not the parser's.
 *
 * @throws PatchApplyError naming the file (and the change) that does not fit.
 */
export async function planPatch(patch: Patch, fs: ExecutorFileSystem, cwd: PathUri, options: PlanPatchOptions = {}): Promise<FileChange[]> {
  if (patch.hunks.length === 0) throw new PatchApplyError('NoChanges', 'the patch changes no files');
  const view = new PlannedView(fs, options.sandbox);
  const changes: FileChange[] = [];
  for (const hunk of patch.hunks) {
    const displayPath = hunk.path;
    const path = resolvePatchPath(cwd, displayPath, hunk.line);
    const where = { path: displayPath, line: hunk.line };
    switch (hunk.kind) {
      case 'add': {
        const previous = await view.read(path, where);
        changes.push({ kind: 'add', path, displayPath, contents: hunk.contents, previous });
        view.set(path, encoder.encode(hunk.contents));
        break;
      }
      case 'delete': {
        const previous = await view.read(path, where);
        if (previous === null) throw new PatchApplyError('FileNotFound', `cannot delete ${displayPath}: no such file`, where);
        changes.push({ kind: 'delete', path, displayPath, previous });
        view.set(path, null);
        break;
      }
      case 'update': {
        const previous = await view.read(path, where);
        if (previous === null) throw new PatchApplyError('FileNotFound', `cannot update ${displayPath}: no such file`, where);
        const contents = updatedContents(decode(previous, where), hunk.chunks, displayPath);
        const moveTo = hunk.movePath === undefined ? undefined : resolvePatchPath(cwd, hunk.movePath, hunk.line);
        if (moveTo === undefined || moveTo.equals(path) || hunk.movePath === undefined) {
          // Moving a file onto itself is an update; writing then removing would lose it.
          changes.push({ kind: 'update', path, displayPath, contents, previous, move: undefined });
          view.set(path, encoder.encode(contents));
          break;
        }
        const moveWhere = { path: hunk.movePath, line: hunk.line };
        const move = { path: moveTo, displayPath: hunk.movePath, previous: await view.read(moveTo, moveWhere) };
        changes.push({ kind: 'update', path, displayPath, contents, previous, move });
        view.set(moveTo, encoder.encode(contents));
        view.set(path, null);
        break;
      }
    }
  }
  return changes;
}

/** Resolves a path as the patch writes it against the turn's cwd. */
export function resolvePatchPath(cwd: PathUri, written: string, line?: number): PathUri {
  const where = { path: written, ...(line === undefined ? {} : { line }) };
  if (written === '') throw new PatchApplyError('InvalidPath', 'the patch names an empty path', where);
  try {
    const absolute = cwd.convention === 'posix' ? written.startsWith('/') : /^(?:[A-Za-z]:[\\/]|[\\/]{2})/.test(written);
    return absolute ? PathUri.fromNativePath(written, cwd.convention) : cwd.join(written);
  } catch (error) {
    if (error instanceof PathUriError) throw new PatchApplyError('InvalidPath', `invalid path ${written}: ${error.message}`, where);
    throw error;
  }
}

/** The new text of a file after an update's chunks, with Codex's matching rules. */
export function updatedContents(original: string, chunks: readonly UpdateChunk[], displayPath: string): string {
  const file = TextFile.parse(original);
  const lines = file.texts();
  const replacements: Replacement[] = [];
  let cursor = 0;
  chunks.forEach((chunk, index) => {
    const where = { path: displayPath, hunk: index + 1, line: chunk.line };
    if (chunk.context !== undefined) {
      const at = seekSequence(lines, [chunk.context], cursor, false);
      if (at === undefined) {
        throw new PatchApplyError('ContextNotFound', `could not find the context line '${chunk.context}' of change ${index + 1} (patch line ${chunk.line}) in ${displayPath}`, where);
      }
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      // A pure addition goes at the end of the file (before a final blank line), whatever the context.
      const at = lines.at(-1) === '' ? lines.length - 1 : lines.length;
      replacements.push({ start: at, count: 0, lines: chunk.newLines });
      return;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let at = seekSequence(lines, pattern, cursor, chunk.endOfFile);
    if (at === undefined && pattern.at(-1) === '') {
      // A trailing empty old line often stands for the file's final newline, which is no line here.
      pattern = pattern.slice(0, -1);
      if (replacement.at(-1) === '') replacement = replacement.slice(0, -1);
      at = seekSequence(lines, pattern, cursor, chunk.endOfFile);
    }
    if (at === undefined) {
      throw new PatchApplyError(
        'LinesNotFound',
        `could not find the lines of change ${index + 1} (patch line ${chunk.line}) in ${displayPath}:\n${chunk.oldLines.join('\n')}`,
        where,
      );
    }
    replacements.push({ start: at, count: pattern.length, lines: replacement });
    cursor = at + pattern.length;
  });
  replacements.sort((a, b) => a.start - b.start);
  return file.replace(replacements);
}

function decode(bytes: Uint8Array, where: { path: string; line: number }): string {
  try {
    // Keep a byte order mark: it is part of the file and must survive the rewrite.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new PatchApplyError('InvalidUtf8', `cannot update ${where.path}: it is not UTF-8 text`, where);
  }
}

/** The files as the patch leaves them so far: planned contents over what the filesystem holds. */
class PlannedView {
  readonly #planned = new Map<string, PriorContents>();

  constructor(
    private readonly fs: ExecutorFileSystem,
    private readonly sandbox: FileSystemSandboxContext | null | undefined,
  ) {}

  set(path: PathUri, contents: PriorContents): void {
    this.#planned.set(path.toString(), contents);
  }

  async read(path: PathUri, where: { path: string; line: number }): Promise<PriorContents> {
    const planned = this.#planned.get(path.toString());
    if (planned !== undefined) return planned;
    try {
      return await this.fs.readFile(path, { sandbox: this.sandbox });
    } catch (error) {
      if (!(error instanceof FileSystemError)) throw error;
      switch (error.code) {
        case 'NotFound':
          return null;
        case 'IsADirectory':
        case 'NotAFile':
          throw new PatchApplyError('NotAFile', `${where.path} is not a regular file`, where);
        default:
          throw new PatchApplyError('ReadFailed', `cannot read ${where.path}: ${error.message}`, where);
      }
    }
  }
}
