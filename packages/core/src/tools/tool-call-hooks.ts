// Hooks around each tool call of a turn: before it runs (a hook may block it, and the model reads
// why instead) and after (a hook may replace what the model reads, and add context before it).
import type { ResponseItem } from '@skein/protocol';
import type { ToolCall } from './tool-router.js';

/** The turn a call belongs to. */
export interface ToolCallScope {
  readonly turnId: string;
  readonly signal: AbortSignal;
}

/** What runs around a turn's tool calls. */
export interface ToolCallHooks {
  /** The output the model reads instead of the call's, when a hook blocks it; undefined runs it. */
  beforeCall(call: ToolCall, scope: ToolCallScope): Promise<string | undefined>;
  /** What is recorded for the call's `output`: context messages first, then the output, possibly replaced. */
  afterCall(call: ToolCall, output: ResponseItem, scope: ToolCallScope): Promise<readonly ResponseItem[]>;
}
