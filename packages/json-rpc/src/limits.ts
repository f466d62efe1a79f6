// The bounds the transport itself enforces, named in one place; each server sets its own request
// size, queue length and concurrency on top of them.

/** A frame this many times the request limit is not even buffered: the WebSocket is closed (1009). */
export const HARD_FRAME_FACTOR = 2;
/** How much of an overlong line is kept, so its request id can still be read for the answer. */
export const OVERSIZED_HEAD_BYTES = 4096;
/** How often idle WebSocket clients are pinged; one missed pong and the client is treated as gone. */
export const HEARTBEAT_INTERVAL_MS = 30_000;
