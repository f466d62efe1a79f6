// Every bound the executor enforces, named in one place so callers, docs and tests agree on them.
// The walk and block limits are Codex 0.171.0's; the others are ours and sized for one busy client.

const MiB = 1024 * 1024;

/** Size of each chunk a chunked read yields, and the largest `fs/readBlock` length accepted. */
export const FILE_READ_CHUNK_BYTES = 1 * MiB;

/** The largest file `readFile` returns in one piece; larger files are read with `readFileStream`. */
export const MAX_READ_FILE_BYTES = 128 * MiB;

/** The most entries `readDirectory` returns; a larger directory is listed with a bounded `walk`. */
export const MAX_READ_DIRECTORY_ENTRIES = 100_000;

/** Walk bounds a caller may ask for at most (Codex's own maximums). */
export const MAX_WALK_DEPTH = 64;
/** Directories a walk may traverse, the root included. */
export const MAX_WALK_DIRECTORIES = 10_000;
/** Directory entries a walk may examine. */
export const MAX_WALK_ENTRIES = 50_000;
/** Estimated size of a walk's result; past it the walk stops and reports `truncated`. */
export const MAX_WALK_RESPONSE_BYTES = 4 * MiB;
/** What each entry or error costs against {@link MAX_WALK_RESPONSE_BYTES} on top of its path. */
export const WALK_ITEM_OVERHEAD_BYTES = 64;

/** Output a process keeps for `process/read` when the caller sets no cap; older chunks are dropped. */
export const DEFAULT_RETAINED_OUTPUT_BYTES = 1 * MiB;
/** The largest retained-output cap a caller may ask for. */
export const MAX_RETAINED_OUTPUT_BYTES = 64 * MiB;
/** The longest a `process/read` may wait for new output. */
export const MAX_READ_WAIT_MS = 30_000;
/** Processes one owner (connection) may have running at once. */
export const MAX_RUNNING_PROCESSES = 64;
/** Exited processes kept readable per owner; the oldest is forgotten past this. */
export const MAX_RETAINED_EXITED_PROCESSES = 256;
/** How long an exited process's pipes may stay open (a grandchild holding them) before `exited` is reported anyway. */
export const EXIT_DRAIN_GRACE_MS = 100;

/** Requests one connection may have waiting or running; past it the server answers "overloaded". */
export const MAX_QUEUED_REQUESTS = 128;
/**
 * Filesystem reads one connection runs together while nothing else runs (past `--concurrent-requests`;
 * see READ_METHODS): enough to keep libuv's four file-system threads busy.
 */
export const CONCURRENT_READS = 8;

/** Requests one connection runs at once unless configured (Codex's `--concurrent-requests` default). */
export const DEFAULT_CONCURRENT_REQUESTS = 1;
/** The largest request the server acts on; a larger one is answered with an error and skipped. */
export const DEFAULT_MAX_REQUEST_BYTES = 64 * MiB;
/** Unsent bytes a connection may pile up before streamed output notifications are dropped (reads still see it). */
export const MAX_OUTBOUND_BUFFERED_BYTES = 64 * MiB;
/** The longest `fs/open` handle id, in UTF-8 bytes (Codex's limit). */
export const MAX_FILE_HANDLE_ID_BYTES = 32;
/** Open `fs/open` handles per connection. */
export const MAX_OPEN_FILE_HANDLES = 64;

/**
 * How often a WebSocket client pings its exec-server; a connection that answers nothing (no pong,
 * no message) for one interval after a ping is taken as dead, so a machine that vanished is noticed
 * without waiting for TCP's own timeouts.
 */
export const DEFAULT_KEEPALIVE_INTERVAL_MS = 15_000;
