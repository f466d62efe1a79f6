// What a reader reports instead of crashing: a damaged line, a torn tail, a missing header.

/** The kinds of trouble a read can meet. */
export type RolloutProblemKind =
  /** A line in the middle of the file that is not JSON. */
  | 'corrupt-line'
  /** A JSON line that does not match its line type's schema. */
  | 'invalid-line'
  /** A line longer than the reader's limit; skipped. */
  | 'line-too-long'
  /** The last line is incomplete (a crash mid-write); ignored, and a resuming writer cuts it off. */
  | 'torn-tail'
  /** The file does not start with a `session_meta` line. */
  | 'missing-session-meta'
  /** A fork's parent history (`history_base`) could not be read. */
  | 'history-base-unavailable';

/** One problem, with where it is. */
export interface RolloutProblem {
  readonly kind: RolloutProblemKind;
  readonly path: string;
  /** 1-based line number, when the problem is a line. */
  readonly lineNumber?: number;
  /** Byte offset of the line's start. */
  readonly byteOffset?: number;
  readonly message: string;
}
