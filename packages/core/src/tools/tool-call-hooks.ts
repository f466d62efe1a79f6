// Hooks around each tool call of a turn: before it runs (a hook may block it, and the model reads
// why instead, or rewrite its input) and after (a hook may replace what the model reads, and add
// context before it).
import type { ResponseItem } from '@skein/protocol';
import type { DispatchedCall, ToolCall } from './tool-router.js';

/** The turn a call belongs to. */
export interface ToolCallScope {
  readonly turnId: string;
  readonly signal: AbortSignal;
}

/** What the hooks before a call decided: run it as the model asked (undefined), run `call` instead, or do not run it and answer `blocked`. */
export type BeforeCallVerdict = { readonly call: ToolCall } | { readonly blocked: string } | undefined;

/** What runs around a turn's tool calls. */
export interface ToolCallHooks {
  beforeCall(call: ToolCall, scope: ToolCallScope): Promise<BeforeCallVerdict>;
  /** What is recorded for the call's output: context messages first, then the output, possibly replaced. */
  afterCall(call: ToolCall, dispatched: DispatchedCall, scope: ToolCallScope): Promise<readonly ResponseItem[]>;
}
