// Parses apply_patch text into a Patch, with Codex's leniency: whitespace around the markers and
// hunk headers, a heredoc wrapper (`<<'EOF'` … `EOF`), blank lines between chunks, CRLF line ends,
// and a first chunk without `@@`.
import { PATCH_ENVIRONMENT_ID_PREFIX } from '../environment-choice.js';
import type { Patch, PatchHunk, UpdateChunk } from './patch.js';

/** Stable reasons a patch text is rejected. */
export type PatchParseErrorCode =
  | 'MissingBeginPatch'
  | 'MissingEndPatch'
  | 'InvalidHunkHeader'
  | 'EmptyUpdate'
  | 'MissingContextMarker'
  | 'EmptyChunk'
  | 'UnexpectedLine';

/** A patch text that does not follow the grammar; `line` is 1-based within the patch text. */
export class PatchParseError extends Error {
  override readonly name = 'PatchParseError';
  readonly code: PatchParseErrorCode;
  readonly line: number;

  constructor(code: PatchParseErrorCode, line: number, message: string) {
    super(message);
    this.code = code;
    this.line = line;
  }
}

const BEGIN_PATCH = '*** Begin Patch';
const END_PATCH = '*** End Patch';
const ADD_FILE = '*** Add File: ';
const DELETE_FILE = '*** Delete File: ';
const UPDATE_FILE = '*** Update File: ';
const MOVE_TO = '*** Move to: ';
const END_OF_FILE = '*** End of File';
const HEREDOC_OPENERS: ReadonlySet<string> = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

// Rust's `str::trim` (Unicode White_Space), which is what decides Codex's leniency; JavaScript's
// `trim` differs at the edges (it strips U+FEFF, keeps U+0085).
const LEADING_SPACE = /^\p{White_Space}+/u;
const TRAILING_SPACE = /\p{White_Space}+$/u;

/** Trims Unicode White_Space from both ends, as Codex does. */
export function trimWhiteSpace(text: string): string {
  return trimEndWhiteSpace(text).replace(LEADING_SPACE, '');
}

/** Trims Unicode White_Space from the end. */
export function trimEndWhiteSpace(text: string): string {
  return text.replace(TRAILING_SPACE, '');
}

/**
 * Parses a patch. Paths are kept as written (relative to the turn's cwd, or absolute).
 *
 * @example
 * parsePatch('*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n');
 * // { hunks: [{ kind: 'add', path: 'hello.txt', contents: 'hi\n', line: 2 }] }
 * @throws PatchParseError with the offending line.
 */
export function parsePatch(text: string): Patch {
  const trimmed = trimWhiteSpace(text);
  // Like Rust's `lines()`: split on LF and drop one CR before it; no empty last line.
  const lines = trimmed === '' ? [] : trimmed.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const first = bodyStart(lines);
  const body = lines.slice(first, lines.length - first);
  const hunks: PatchHunk[] = [];
  // The environment line names where the patch applies; the caller routed the call by it already.
  let index = body[0]?.startsWith(PATCH_ENVIRONMENT_ID_PREFIX) === true ? 1 : 0;
  while (index < body.length) {
    const { hunk, consumed } = parseHunk(body, index, first + 1);
    hunks.push(hunk);
    index += consumed;
  }
  return { hunks };
}

/** Index of the first line after `*** Begin Patch` (1, or 2 inside a heredoc wrapper). */
function bodyStart(lines: readonly string[]): number {
  const strict = boundaryError(lines, 0);
  if (strict === undefined) return 1;
  const opener = lines[0];
  const closer = lines.at(-1);
  if (opener !== undefined && HEREDOC_OPENERS.has(opener) && closer?.endsWith('EOF') === true && lines.length >= 4) {
    const inner = boundaryError(lines, 1);
    if (inner === undefined) return 2;
    throw inner;
  }
  throw strict;
}

/** Checks the begin and end markers of `lines` without `skip` lines at either end. */
function boundaryError(lines: readonly string[], skip: number): PatchParseError | undefined {
  const first = lines[skip];
  const last = lines[lines.length - 1 - skip];
  if (first === undefined || trimWhiteSpace(first) !== BEGIN_PATCH) {
    return new PatchParseError('MissingBeginPatch', skip + 1, `the first line of the patch must be '${BEGIN_PATCH}'`);
  }
  if (last === undefined || lines.length - 2 * skip < 2 || trimWhiteSpace(last) !== END_PATCH) {
    return new PatchParseError('MissingEndPatch', Math.max(lines.length - skip, 1), `the last line of the patch must be '${END_PATCH}'`);
  }
  return undefined;
}

/** Parses the hunk starting at `body[start]`; `lineOffset` turns body indexes into patch lines. */
function parseHunk(body: readonly string[], start: number, lineOffset: number): { hunk: PatchHunk; consumed: number } {
  const line = start + lineOffset;
  const header = trimWhiteSpace(body[start] ?? '');
  if (header.startsWith(ADD_FILE)) {
    let end = start + 1;
    let contents = '';
    for (; end < body.length; end++) {
      const added = body[end] ?? '';
      if (!added.startsWith('+')) break;
      contents += `${added.slice(1)}\n`;
    }
    return { hunk: { kind: 'add', path: header.slice(ADD_FILE.length), contents, line }, consumed: end - start };
  }
  if (header.startsWith(DELETE_FILE)) {
    return { hunk: { kind: 'delete', path: header.slice(DELETE_FILE.length), line }, consumed: 1 };
  }
  if (header.startsWith(UPDATE_FILE)) {
    const path = header.slice(UPDATE_FILE.length);
    let index = start + 1;
    let movePath: string | undefined;
    const moveLine = body[index];
    if (moveLine?.startsWith(MOVE_TO) === true) {
      movePath = moveLine.slice(MOVE_TO.length);
      index++;
    }
    const chunks: UpdateChunk[] = [];
    while (index < body.length) {
      const next = body[index] ?? '';
      // Blank lines may separate chunks; a line starting with `*` begins the next hunk or ends the patch.
      if (trimWhiteSpace(next) === '') {
        index++;
        continue;
      }
      if (next.startsWith('*')) break;
      const { chunk, consumed } = parseChunk(body, index, lineOffset, chunks.length === 0);
      chunks.push(chunk);
      index += consumed;
    }
    if (chunks.length === 0) {
      throw new PatchParseError('EmptyUpdate', line, `update of '${path}' has no changes: add at least one '@@' section with '-', '+' or ' ' lines`);
    }
    return { hunk: { kind: 'update', path, movePath, chunks, line }, consumed: index - start };
  }
  throw new PatchParseError(
    'InvalidHunkHeader',
    line,
    `'${header}' is not a valid hunk header; expected '${ADD_FILE}<path>', '${DELETE_FILE}<path>' or '${UPDATE_FILE}<path>'`,
  );
}

/** Parses one `@@` chunk of an update; only the first chunk of a file may omit the `@@` line. */
function parseChunk(
  body: readonly string[],
  start: number,
  lineOffset: number,
  mayOmitMarker: boolean,
): { chunk: UpdateChunk; consumed: number } {
  const first = body[start] ?? '';
  const line = start + lineOffset;
  let context: string | undefined;
  let index = start;
  if (first === '@@') {
    index++;
  } else if (first.startsWith('@@ ')) {
    context = first.slice(3);
    index++;
  } else if (!mayOmitMarker) {
    throw new PatchParseError('MissingContextMarker', line, `expected a '@@' line to start the next change, got '${first}'`);
  }
  const oldLines: string[] = [];
  const newLines: string[] = [];
  let endOfFile = false;
  let changeLines = 0;
  for (; index < body.length; index++) {
    const text = body[index] ?? '';
    if (text === END_OF_FILE) {
      if (changeLines === 0) throw emptyChunk(index + lineOffset);
      endOfFile = true;
      index++;
      break;
    }
    const marker = text.charAt(0);
    if (text === '') {
      // A bare empty line is read as an empty context line (editors strip the lone space).
      oldLines.push('');
      newLines.push('');
    } else if (marker === ' ') {
      oldLines.push(text.slice(1));
      newLines.push(text.slice(1));
    } else if (marker === '+') {
      newLines.push(text.slice(1));
    } else if (marker === '-') {
      oldLines.push(text.slice(1));
    } else {
      if (changeLines === 0) {
        throw new PatchParseError(
          'UnexpectedLine',
          index + lineOffset,
          `unexpected line '${text}' in an update: every line must start with ' ' (context), '+' (added) or '-' (removed)`,
        );
      }
      break;
    }
    changeLines++;
  }
  if (changeLines === 0) throw emptyChunk(index + lineOffset);
  return { chunk: { context, oldLines, newLines, endOfFile, line }, consumed: index - start };
}

function emptyChunk(line: number): PatchParseError {
  return new PatchParseError('EmptyChunk', line, "a '@@' section has no '-', '+' or ' ' lines");
}
