// RolloutError: every failure this package reports, with a stable `code` callers switch on.

/** Why a rollout operation failed. */
export type RolloutErrorCode =
  /** A line that is not JSON, or JSON that does not match its line type's schema. */
  | 'CorruptLine'
  /** The file does not start with a `session_meta` line, so it is not a thread. */
  | 'MissingSessionMeta'
  /** A single line is longer than the reader's limit. */
  | 'LineTooLong'
  /** Another writer (this process or another one) owns the thread's file. */
  | 'WriterBusy'
  /** The writer was closed, or failed earlier and refuses further appends. */
  | 'WriterClosed'
  /** Too many bytes are waiting to be written: the caller appends without awaiting. */
  | 'QueueFull'
  /** An item handed to the writer does not match its schema; nothing was written. */
  | 'InvalidItem'
  /** The thread file already exists (a new thread must not reuse a path). */
  | 'AlreadyExists'
  /** No thread with this id, or the file it points to is gone. */
  | 'ThreadNotFound'
  /** A fork point names a turn the source thread does not have. */
  | 'TurnNotFound'
  /** A fork's `history_base` names a parent that cannot be found or does not fit. */
  | 'HistoryBaseUnavailable'
  /** A list cursor that this index did not issue (or from an index of another shape). */
  | 'InvalidCursor'
  /** A file name that is not `rollout-<timestamp>-<uuid>.jsonl`. */
  | 'InvalidRolloutPath'
  /** An argument outside its allowed range (a page size, a limit). */
  | 'InvalidArgument'
  /** The store's database failed or could not be reached; what the failed call would have written was not. */
  | 'StoreUnavailable'
  /** Another host took the thread over after this writer's lease lapsed; the writer accepts no more lines. */
  | 'LeaseLost';

/** A failure reading, writing, listing or moving rollout files. */
export class RolloutError extends Error {
  override readonly name = 'RolloutError';

  constructor(
    readonly code: RolloutErrorCode,
    message: string,
    /** The file involved, when there is one. */
    readonly path?: string,
    /** The 1-based line number involved, when there is one. */
    readonly lineNumber?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
