// The forward reader: every line of a rollout in order, parsed with its schema. A torn last line
// is tolerated, a damaged line elsewhere is reported with its line number, and lines of unknown
// types are kept whole.
import { RolloutError } from '../rollout-error.js';
import { parseRolloutLine, type RolloutLine } from '../lines/rollout-line.js';
import type { FileHandle } from 'node:fs/promises';
import type { OpenFile } from '../open-file.js';
import { DEFAULT_MAX_LINE_BYTES, scanHandleLines, scanLines, type LineVisit, type OversizedLine, type RawLine, type ScanLinesOptions } from './line-scanner.js';
import type { RolloutProblem } from './rollout-problem.js';

/** Where a line sits in its file. */
export interface LinePosition {
  readonly lineNumber: number;
  readonly byteOffset: number;
  /** Offset just past the line's newline. */
  readonly byteEnd: number;
  /** False for a last line that has no newline yet (it parsed, so it is whole). */
  readonly terminated: boolean;
}

/** A line that parsed and matched its schema; `line` is the value exactly as it was in the file. */
export interface RolloutLineRecord extends LinePosition {
  readonly kind: 'line';
  readonly line: RolloutLine;
}

/** A line that is JSON but does not match its type's schema; kept, and reported. */
export interface InvalidRolloutLineRecord extends LinePosition {
  readonly kind: 'invalid';
  readonly value: unknown;
}

/** What a scan hands its visitor, in file order. */
export type RolloutRecord = RolloutLineRecord | InvalidRolloutLineRecord;

/** Options shared by the readers. */
export interface RolloutReadOptions {
  /** Longest line accepted; longer ones are skipped and reported. Default `DEFAULT_MAX_LINE_BYTES`. */
  readonly maxLineBytes?: number;
  /** Throw `RolloutError` (`CorruptLine`, `LineTooLong`) at the first damaged line instead of reporting it. A torn last line is never an error. */
  readonly strict?: boolean;
  /** Read only the bytes before this offset. */
  readonly endByteOffset?: number;
  /** Bytes per read call; default `READ_CHUNK_BYTES`. */
  readonly readChunkBytes?: number;
  readonly signal?: AbortSignal;
  /** How the file is opened; default the real filesystem's `open`. */
  readonly openFile?: OpenFile;
}

/** What a scan found besides the records. */
export interface RolloutScanSummary {
  readonly problems: readonly RolloutProblem[];
  /** Lines seen (blank lines included). */
  readonly lineCount: number;
  /** Offset just past the last whole line: where a resuming writer continues. */
  readonly validEnd: number;
  /** Whether the last whole line is missing its newline. */
  readonly unterminatedTail: boolean;
}

/**
 * Reads `filePath` line by line, calling `visit` with each record in order (until it returns true,
 * which stops the scan; a promise pauses it until it settles); damaged lines go to the summary's
 * `problems` (or throw, with `strict`). Memory use is bounded by the longest line.
 */
export async function scanRolloutFile(
  filePath: string,
  visit: (record: RolloutRecord) => LineVisit,
  options: RolloutReadOptions = {},
): Promise<RolloutScanSummary> {
  return scanRecords(filePath, visit, options, (onLine, onOversized, scanOptions) => scanLines(filePath, onLine, onOversized, scanOptions));
}

/** `scanRolloutFile` over a file that is already open (read from its start; the handle stays open). */
export async function scanRolloutHandle(
  handle: FileHandle,
  filePath: string,
  visit: (record: RolloutRecord) => LineVisit,
  options: RolloutReadOptions = {},
): Promise<RolloutScanSummary> {
  return scanRecords(filePath, visit, options, (onLine, onOversized, scanOptions) => scanHandleLines(handle, onLine, onOversized, scanOptions));
}

type LineSource = (onLine: (line: RawLine) => LineVisit, onOversized: (line: OversizedLine) => void, options: ScanLinesOptions) => Promise<void>;

async function scanRecords(
  filePath: string,
  visit: (record: RolloutRecord) => LineVisit,
  options: RolloutReadOptions,
  scan: LineSource,
): Promise<RolloutScanSummary> {
  const problems: RolloutProblem[] = [];
  let lineCount = 0;
  let validEnd = 0;
  let unterminatedTail = false;
  const report = (problem: RolloutProblem): void => {
    if (options.strict === true && problem.kind !== 'torn-tail') {
      throw new RolloutError(problem.kind === 'line-too-long' ? 'LineTooLong' : 'CorruptLine', problem.message, filePath, problem.lineNumber);
    }
    problems.push(problem);
  };
  await scan(
    (raw) => {
      lineCount = raw.lineNumber;
      const position = { lineNumber: raw.lineNumber, byteOffset: raw.byteOffset, byteEnd: raw.byteEnd, terminated: raw.terminated };
      if (raw.text.trim() === '') {
        if (raw.terminated) validEnd = raw.byteEnd;
        return false;
      }
      let value: unknown;
      try {
        value = JSON.parse(raw.text);
      } catch (error) {
        if (!raw.terminated) {
          report({ kind: 'torn-tail', path: filePath, lineNumber: raw.lineNumber, byteOffset: raw.byteOffset, message: `line ${raw.lineNumber} is incomplete (${raw.byteEnd - raw.byteOffset} bytes without a newline): a write was cut off` });
          return false;
        }
        report({ kind: 'corrupt-line', path: filePath, lineNumber: raw.lineNumber, byteOffset: raw.byteOffset, message: `line ${raw.lineNumber} is not JSON: ${(error as Error).message}` });
        validEnd = raw.byteEnd;
        return false;
      }
      validEnd = raw.byteEnd;
      unterminatedTail = !raw.terminated;
      const parsed = parseRolloutLine(value);
      if (parsed.ok) return visit({ kind: 'line', ...position, line: parsed.line });
      report({ kind: 'invalid-line', path: filePath, lineNumber: raw.lineNumber, byteOffset: raw.byteOffset, message: `line ${raw.lineNumber}: ${parsed.message}` });
      return visit({ kind: 'invalid', ...position, value });
    },
    (oversized) => {
      lineCount = oversized.lineNumber;
      if (oversized.terminated) validEnd = oversized.byteEnd;
      report({
        kind: oversized.terminated ? 'line-too-long' : 'torn-tail',
        path: filePath,
        lineNumber: oversized.lineNumber,
        byteOffset: oversized.byteOffset,
        message: `line ${oversized.lineNumber} is longer than ${options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES} bytes; skipped`,
      });
    },
    {
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      ...(options.endByteOffset === undefined ? {} : { endByteOffset: options.endByteOffset }),
      ...(options.readChunkBytes === undefined ? {} : { chunkBytes: options.readChunkBytes }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.openFile === undefined ? {} : { openFile: options.openFile }),
    },
  );
  return { problems, lineCount, validEnd, unterminatedTail };
}

/** A whole rollout in memory. */
export interface RolloutFile extends RolloutScanSummary {
  readonly path: string;
  /** Every line that parsed, in order. */
  readonly lines: readonly RolloutLineRecord[];
  /** JSON lines that did not match their schema (also in `problems`), kept for callers that copy files. */
  readonly invalidLines: readonly InvalidRolloutLineRecord[];
}

/** Reads a whole rollout into memory (use `loadThread` to reconstruct a thread without keeping every line). */
export async function readRolloutFile(filePath: string, options: RolloutReadOptions = {}): Promise<RolloutFile> {
  const lines: RolloutLineRecord[] = [];
  const invalidLines: InvalidRolloutLineRecord[] = [];
  const summary = await scanRolloutFile(
    filePath,
    (record) => {
      if (record.kind === 'line') lines.push(record);
      else invalidLines.push(record);
    },
    options,
  );
  return { path: filePath, lines, invalidLines, ...summary };
}
