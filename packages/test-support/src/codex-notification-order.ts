// Notification orders Codex 0.171.0's app-server was recorded sending (the h transcripts), for tests
// that hold Skein to the same sequence.

/**
 * A thread's notifications, from `thread/started` to `turn/completed`, for its first turn when the
 * model answers with one message streamed in two deltas and no tool call.
 */
export const PLAIN_TURN_NOTIFICATIONS: readonly string[] = [
  'thread/started',
  'thread/status/changed',
  'turn/started',
  'item/started',
  'item/completed',
  'item/started',
  'item/agentMessage/delta',
  'item/agentMessage/delta',
  'item/completed',
  'thread/tokenUsage/updated',
  // Codex also sends account/rateLimits/updated here, which names no thread.
  'thread/readState/changed',
  'thread/status/changed',
  'turn/completed',
];
