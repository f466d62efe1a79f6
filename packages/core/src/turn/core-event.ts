// The engine's own event stream, one per thread. The app-server and `exec` map these to their wire
// formats; nothing here is a wire shape.
import type { HookRunSummary } from '@skein/hooks';
import type { ThreadGoal } from '../goals/thread-goal.js';
import type { McpStartupState } from '../mcp/mcp-connections.js';
import type { ResponseItem } from '@skein/protocol';
import type { TokenUsage } from '../model-client/response-event.js';
import type { TokenUsageBreakdown } from '../session/thread-token-usage.js';
import type { TurnError } from './run-turn.js';
import type { TurnItem } from './turn-item.js';

/** Who started a command: the model, or the user from the client. */
export type CommandSource = 'agent' | 'userShell';

/** Something that happened in a thread, in order. */
export type CoreEvent =
  /** A thread was loaded (started, resumed or forked) and is ready for turns. */
  | {
      readonly type: 'sessionConfigured';
      readonly threadId: string;
      readonly model: string;
      readonly cwd: string;
      readonly rolloutPath: string;
      readonly resumed: boolean;
    }
  | { readonly type: 'turnStarted'; readonly turnId: string }
  /** A compaction of the history began (`itemId` names its item). */
  | { readonly type: 'compactionStarted'; readonly turnId: string; readonly itemId: string }
  /** A compaction ended: the history was replaced (`completed`), or the request failed and nothing changed. */
  | { readonly type: 'compactionEnded'; readonly turnId: string; readonly itemId: string; readonly status: 'completed' | 'failed' }
  | { readonly type: 'itemStarted'; readonly turnId: string; readonly item: ResponseItem }
  | { readonly type: 'itemCompleted'; readonly turnId: string; readonly item: ResponseItem }
  | { readonly type: 'agentMessageDelta'; readonly turnId: string; readonly itemId: string; readonly delta: string }
  | { readonly type: 'reasoningSummaryDelta'; readonly turnId: string; readonly itemId: string; readonly delta: string }
  | { readonly type: 'tokenUsage'; readonly turnId: string; readonly usage: TokenUsage }
  /** The thread's usage after a response: that response's, and the total since the thread began. */
  | {
      readonly type: 'threadTokenUsage';
      readonly turnId: string;
      readonly last: TokenUsageBreakdown;
      readonly total: TokenUsageBreakdown;
      readonly modelContextWindow: number;
    }
  | { readonly type: 'streamRetrying'; readonly turnId: string; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  | { readonly type: 'turnCompleted'; readonly turnId: string; readonly lastAgentMessage: string | undefined }
  /** A turn stopped before it ended: by the user, or (with `error`) by the session's spent budget. */
  | { readonly type: 'turnAborted'; readonly turnId: string; readonly reason: 'interrupted'; readonly error?: TurnError }
  | { readonly type: 'turnFailed'; readonly turnId: string; readonly error: TurnError }
  /** A command started: the model's (exec_command) or the user's (a shell command), as the client should show it. */
  | {
      readonly type: 'commandStarted';
      readonly turnId: string;
      readonly callId: string;
      /** The argv as one line: `/bin/bash -lc 'echo hi'`. */
      readonly command: string;
      /** The shell script inside it: `echo hi`. */
      readonly cmd: string;
      readonly cwd: string;
      readonly source: CommandSource;
    }
  | { readonly type: 'commandOutputDelta'; readonly turnId: string; readonly callId: string; readonly chunk: string }
  | {
      readonly type: 'commandCompleted';
      readonly turnId: string;
      readonly callId: string;
      readonly command: string;
      readonly argv: readonly string[];
      readonly cwd: string;
      /** The executor's process id (the session id), a string as Codex records it. */
      readonly processId: string;
      readonly exitCode: number | null;
      readonly aggregatedOutput: string;
      readonly durationMs: number;
      readonly source: CommandSource;
    }
  /** Files an apply_patch call changed (absolute paths), or set out to change when `success` is false. */
  | {
      readonly type: 'patchApplied';
      readonly turnId: string;
      readonly callId: string;
      readonly success: boolean;
      /** What the patch tool reported: the list of changed files, or why nothing was written. */
      readonly output: string;
      readonly changes: readonly { readonly path: string; readonly kind: 'add' | 'update' | 'delete'; readonly movePath?: string | undefined; readonly diff?: string }[];
    }
  /** The turn's patches so far, as one unified diff from the turn's start (see turn-diff.ts). */
  | { readonly type: 'turnDiffUpdated'; readonly turnId: string; readonly diff: string }
  /** The last `numTurns` user turns left the history (a revert); recorded as Codex's `thread_rolled_back`. */
  | { readonly type: 'threadRolledBack'; readonly numTurns: number }
  /** The thread was given a name (or its name removed). */
  | { readonly type: 'threadNameUpdated'; readonly threadId: string; readonly name: string | null }
  /** The model looked at an image file (view_image), by absolute path. */
  | { readonly type: 'imageViewed'; readonly turnId: string; readonly callId: string; readonly path: string }
  /**
   * An item of the turn as clients show it started or completed (computed once, by TurnItems, from
   * the facts above: messages, reasoning, commands, file changes, images).
   */
  | { readonly type: 'turnItem'; readonly phase: 'started' | 'completed'; readonly turnId: string; readonly item: TurnItem }
  /** Output of a running command item of the current turn. */
  | { readonly type: 'turnItemOutputDelta'; readonly turnId: string; readonly itemId: string; readonly delta: string }
  /** A running tool's word on how it is getting on. */
  | { readonly type: 'toolProgress'; readonly turnId: string; readonly callId: string; readonly message: string }
  /** A running MCP tool call's progress notification (app-server `item/mcpToolCall/progress`). */
  | { readonly type: 'mcpToolCallProgress'; readonly turnId: string; readonly itemId: string; readonly message: string }
  /** One of the thread's MCP servers is starting, ready, failed or cancelled. */
  | { readonly type: 'mcpServerStatus'; readonly name: string; readonly status: McpStartupState; readonly error: string | null }
  /** The thread's goal was created or changed (`turnId` null when no turn changed it). */
  | { readonly type: 'goalUpdated'; readonly turnId: string | null; readonly goal: ThreadGoal }
  /** The thread's goal was removed. */
  | { readonly type: 'goalCleared' }
  /** The server is holding the response back for a safety review (app-server `model/safetyBuffering/updated`). */
  | {
      readonly type: 'safetyBuffering';
      readonly turnId: string;
      readonly model: string;
      readonly useCases: readonly string[];
      readonly reasons: readonly string[];
      readonly fasterModel: string | undefined;
    }
  /** A lifecycle hook started or ended (app-server `hook/started`, `hook/completed`); `turnId` null outside a turn. */
  | { readonly type: 'hookRun'; readonly phase: 'started' | 'completed'; readonly turnId: string | null; readonly run: HookRunSummary }
  /** Something the user should know that did not stop the thread (a failing extension, …). */
  | { readonly type: 'warning'; readonly message: string };
