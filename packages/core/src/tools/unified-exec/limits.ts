// Every bound of unified exec in one place: yield windows, output budgets and the session table, with
// Codex 0.171.0's values so the model sees the same behaviour.

/** Shortest wait for output a call may ask for. */
export const MIN_YIELD_TIME_MS = 250;
/** Longest wait an `exec_command` or a non-empty `write_stdin` may ask for. */
export const MAX_YIELD_TIME_MS = 30_000;
/** An empty `write_stdin` (a poll) waits at least this long, so polling loops stay cheap. */
export const MIN_EMPTY_YIELD_TIME_MS = 5_000;
/** Longest wait an empty `write_stdin` may ask for. */
export const MAX_EMPTY_YIELD_TIME_MS = 300_000;
/** `exec_command`'s wait when the model gives none. */
export const DEFAULT_EXEC_YIELD_TIME_MS = 10_000;
/** `write_stdin`'s wait when the model gives none. */
export const DEFAULT_WRITE_STDIN_YIELD_TIME_MS = 250;
/** Output tokens returned per call when the model gives no `max_output_tokens`. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
/** Output bytes held between calls and for the end event (the middle is dropped beyond this). */
export const UNIFIED_EXEC_OUTPUT_MAX_BYTES = 1024 * 1024;
/** Live sessions per thread; starting one more prunes an old one. */
export const MAX_UNIFIED_EXEC_SESSIONS = 64;
/** Pruning never picks one of this many most recently used sessions. */
export const PRUNE_PROTECTED_RECENT_SESSIONS = 8;
/** Output-delta events per session; later output still reaches the model and the end event. */
export const MAX_OUTPUT_DELTA_EVENTS = 10_000;
/** After the process exits, how long to wait for the rest of its output (a background child may hold the pipe). */
export const POST_EXIT_OUTPUT_GRACE_MS = 250;
/** Session ids are drawn from [MIN, MAX), like Codex's, so the model never relies on them being small. */
export const MIN_SESSION_ID = 1_000;
export const MAX_SESSION_ID = 100_000;
/** How long closing waits for a killed process to be reported gone. */
export const TERMINATE_WAIT_MS = 2_000;

/**
 * How long a wait for a detached command's exit sleeps between checks; its exit, output or close
 * wakes the wait sooner, so this bounds only how long a missed wake-up could go unnoticed.
 */
export const DETACHED_EXIT_POLL_MS = 60_000;
