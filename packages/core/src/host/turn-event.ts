// What a turn run through the host API tells its caller: the app-server's v2 notifications for the
// thread, as `{ method, params }` with the params an app-server client receives (threadId
// included), so code written against one reads the other. Items are the protocol's ThreadItem.
import type { ThreadItem } from '@skein/protocol';

/** Token counts as `thread/tokenUsage/updated` carries them. */
export interface TokenUsageBreakdown {
  readonly totalTokens: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteInputTokens: number;
  readonly outputTokens: number;
  readonly reasoningOutputTokens: number;
}

/** A thread's usage: since it began, in the last response, and the model's window. */
export interface TokenUsageSnapshot {
  readonly total: TokenUsageBreakdown;
  readonly last: TokenUsageBreakdown;
  readonly modelContextWindow: number;
}

/** How a turn ended. */
export type TurnStatus = 'completed' | 'interrupted' | 'failed';

/** A turn's error, as the v2 `TurnError`. */
export interface TurnErrorInfo {
  readonly message: string;
  readonly codexErrorInfo: unknown;
  readonly additionalDetails: unknown;
}

/** The v2 `Turn` object of `turn/started` and `turn/completed`. */
export interface TurnObject {
  readonly id: string;
  readonly items: readonly ThreadItem[];
  readonly status: 'inProgress' | TurnStatus;
  readonly error: TurnErrorInfo | null;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
  readonly durationMs: number | null;
  readonly [field: string]: unknown;
}

/** The thread and turn every turn-scoped event names. */
export interface TurnEventScope {
  readonly threadId: string;
  readonly turnId: string;
}

/** One event of a turn. */
export type TurnEvent =
  | { readonly method: 'turn/started'; readonly params: { readonly threadId: string; readonly turn: TurnObject } }
  | { readonly method: 'item/started'; readonly params: TurnEventScope & { readonly item: ThreadItem; readonly startedAtMs: number } }
  | { readonly method: 'item/completed'; readonly params: TurnEventScope & { readonly item: ThreadItem; readonly completedAtMs: number } }
  | { readonly method: 'item/agentMessage/delta'; readonly params: TurnEventScope & { readonly itemId: string; readonly delta: string } }
  | { readonly method: 'item/commandExecution/outputDelta'; readonly params: TurnEventScope & { readonly itemId: string; readonly delta: string } }
  | { readonly method: 'item/reasoning/summaryTextDelta'; readonly params: TurnEventScope & { readonly itemId: string; readonly delta: string; readonly summaryIndex: number } }
  | { readonly method: 'turn/diff/updated'; readonly params: TurnEventScope & { readonly diff: string } }
  | { readonly method: 'thread/tokenUsage/updated'; readonly params: TurnEventScope & { readonly tokenUsage: TokenUsageSnapshot } }
  | { readonly method: 'warning'; readonly params: { readonly threadId: string; readonly message: string } }
  | { readonly method: 'error'; readonly params: TurnEventScope & { readonly willRetry: boolean; readonly error: TurnErrorInfo } }
  | { readonly method: 'turn/completed'; readonly params: { readonly threadId: string; readonly turn: TurnObject } }
  | {
      /** Hook runs, MCP progress and startup, safety buffering and goal changes, with their v2 params. */
      readonly method: 'hook/started' | 'hook/completed' | 'item/mcpToolCall/progress' | 'mcpServer/startupStatus/updated' | 'model/safetyBuffering/updated' | 'thread/goal/updated' | 'thread/goal/cleared';
      readonly params: { readonly threadId: string; readonly [field: string]: unknown };
    };

/** What a finished turn returns. */
export interface TurnResult {
  readonly turnId: string;
  readonly status: TurnStatus;
  /** The turn's last agent message (its answer), if it gave one. */
  readonly finalResponse: string | undefined;
  /** Every item the turn completed, in order (the user's message first). */
  readonly items: readonly ThreadItem[];
  readonly error: TurnErrorInfo | null;
  /** The thread's usage once the turn ended. */
  readonly usage: TokenUsageSnapshot;
}
