// Every bound the app-server keeps, named in one place. Each can be lowered per server for tests.

const MiB = 1024 * 1024;

/** Requests one connection may have waiting or running; beyond it a request gets -32001. */
export const MAX_QUEUED_REQUESTS = 256;
/** Requests one connection runs at once; they start in arrival order. */
export const DEFAULT_CONCURRENT_REQUESTS = 8;
/** The largest message acted on (base64 file contents make `fs/writeFile` the big one). */
export const MAX_REQUEST_BYTES = 64 * MiB;
/** Server→client requests one connection may leave unanswered. */
export const MAX_PENDING_SERVER_REQUESTS = 1024;
/**
 * Bytes a client may leave unread behind the message being written to it. Past it a WebSocket client
 * is disconnected at the next message, as Codex drops a connection whose 128-message outbound queue
 * is full; a stdio client, which cannot be, loses notifications (answers still queue). A bound in
 * bytes, not messages: the transport reports bytes (the socket's unwritten data), and a delta of a
 * few characters and a multi-megabyte `thread/read` answer are both one message.
 */
export const MAX_OUTBOUND_BUFFERED_BYTES = 64 * MiB;
/** The longest page a list method returns, whatever `limit` asks for. */
export const MAX_PAGE_SIZE = 1000;
/** Per-stream output `command/exec` and `process/spawn` capture unless the client sets `outputBytesCap` (Codex's default). */
export const DEFAULT_STANDALONE_OUTPUT_CAP_BYTES = MiB;
/** The most a standalone process's stream captures even when the client disables the cap. */
export const STANDALONE_OUTPUT_HARD_CAP_BYTES = 64 * MiB;
/** How long a standalone process may run unless the client sets `timeoutMs` (Codex's default). */
export const DEFAULT_STANDALONE_TIMEOUT_MS = 10_000;
/** Matches a fuzzy file search answers with (Codex's number). */
export const MAX_FUZZY_SEARCH_RESULTS = 50;
/** Files and directories one fuzzy-search walk collects before it stops. */
export const MAX_FUZZY_SEARCH_ENTRIES = 200_000;
/** Fuzzy-search sessions one connection may hold at a time. */
export const MAX_FUZZY_SEARCH_SESSIONS = 64;
