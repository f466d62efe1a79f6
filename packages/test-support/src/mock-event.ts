// What a script is made of: Responses API stream events (before the server numbers them) and the
// stream-cut marker.

/**
 * One Responses API stream event as a script holds it: `type` plus the event's fields, which may hold
 * `DeferredId` placeholders. The server adds `sequence_number` (and `output_index` where missing)
 * when it serves the event, so builders and hand-written events leave them out.
 */
export interface MockEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * Marks where the server stops a stream: the events before it are sent, then the connection closes
 * without a terminal event. `reset: false` ends the chunked body cleanly (the client sees an early
 * end of stream); `reset: true` destroys the socket mid-body (the client sees a transport error).
 */
export class StreamCut {
  /** @param reset destroy the socket instead of ending the body. */
  constructor(readonly reset: boolean) {}
}

/**
 * The "stream cut mid-response" marker; it must be the last step of an `sse(...)` script.
 * @example sse(assistantMessage(['Hel', 'lo']), streamCut()) // no response.completed
 */
export function streamCut(options: { readonly reset?: boolean } = {}): StreamCut {
  return new StreamCut(options.reset ?? false);
}
