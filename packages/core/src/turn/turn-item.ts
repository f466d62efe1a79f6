// The items of a turn as clients show them — messages, reasoning, commands, file changes, images —
// with their ids, status and times. Core computes them once (TurnItems); app-server's v2 items,
// `exec --json` events and the rollout's `item_completed` lines are projections of them.
import type { CommandSource } from './core-event.js';

/** Where an item stands. */
export type TurnItemStatus = 'inProgress' | 'completed' | 'failed' | 'declined';

/** One file of a patch: an absolute native path, and its contents or hunks. */
export interface TurnFileChange {
  readonly path: string;
  readonly kind: 'add' | 'update' | 'delete';
  readonly movePath?: string | undefined;
  readonly diff?: string | undefined;
}

interface Timed {
  readonly id: string;
  /** Milliseconds since the epoch. */
  readonly startedAtMs: number;
  readonly completedAtMs: number | null;
}

/** A question of `request_user_input_async`: a title, and the answers offered (null: free text). */
export interface AsyncQuestion {
  readonly title: string;
  readonly options: readonly string[] | null;
}

/** An assistant message, with the text so far. */
export interface AgentMessageTurnItem extends Timed {
  readonly kind: 'agentMessage';
  readonly text: string;
  readonly phase: string | null;
  /** `async`: a tool showed it while the turn went on (code mode's `_async` tools). */
  readonly delivery?: 'async' | undefined;
  /** The questions it asks, for `request_user_input_async`. */
  readonly questions?: readonly AsyncQuestion[] | undefined;
}

/** The model's reasoning: its summary and (when sent) content parts. */
export interface ReasoningTurnItem extends Timed {
  readonly kind: 'reasoning';
  readonly summary: readonly string[];
  readonly content: readonly string[];
}

/** A command: asked about (not yet run), running, or done. */
export interface CommandTurnItem extends Timed {
  readonly kind: 'commandExecution';
  /** The argv as one display line. */
  readonly command: string;
  /** The shell script inside it. */
  readonly cmd: string;
  /** The argv the executor ran; null until it ran. */
  readonly argv: readonly string[] | null;
  readonly cwd: string;
  readonly source: CommandSource;
  /** Whether the process was started (false while it waits on, or after it lost, an approval). */
  readonly executed: boolean;
  /** The command waits for the client's approval. */
  readonly awaitingApproval: boolean;
  readonly status: TurnItemStatus;
  readonly processId: string | null;
  readonly aggregatedOutput: string | null;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
}

/** A patch: asked about, or applied (or not). */
export interface FileChangeTurnItem extends Timed {
  readonly kind: 'fileChange';
  readonly changes: readonly TurnFileChange[];
  readonly awaitingApproval: boolean;
  readonly status: TurnItemStatus;
  /** What the patch tool answered, once it did. */
  readonly output: string | null;
}

/** An image the model looked at (absolute native path). */
export interface ImageViewTurnItem extends Timed {
  readonly kind: 'imageView';
  readonly path: string;
}

/** A compaction of the thread's history (the app-server's `contextCompaction` item). */
export interface ContextCompactionTurnItem extends Timed {
  readonly kind: 'contextCompaction';
  readonly status: TurnItemStatus;
}

/**
 * A search the API ran for the model (a hosted `web_search_call`). While it runs the query is empty
 * and the action `{type: "other"}`; once done they are what was searched, as the model's item says.
 */
export interface WebSearchTurnItem extends Timed {
  readonly kind: 'webSearch';
  readonly query: string;
  readonly action: Readonly<Record<string, unknown>> & { readonly type: string };
}

/** A call of an MCP server's tool: running, or done with the server's result or an error. */
export interface McpToolCallTurnItem extends Timed {
  readonly kind: 'mcpToolCall';
  readonly server: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly status: TurnItemStatus;
  /** What the server answered (`structuredContent` kept for clients). */
  readonly result: { readonly content: readonly unknown[]; readonly structuredContent: unknown; readonly _meta?: unknown } | null;
  readonly error: { readonly message: string } | null;
  readonly durationMs: number | null;
  /** The tool's `readOnlyHint`, when it gave one. */
  readonly readOnlyHint: boolean | null;
}

/** An agent's state in a collaboration item: its status (app-server spelling) and its answer or error. */
export interface CollabAgentState {
  readonly status: 'pendingInit' | 'running' | 'interrupted' | 'completed' | 'errored' | 'shutdown' | 'notFound';
  readonly message: string | null;
}

/**
 * A collaboration call clients see as an item of its own: v2's `wait_agent`, and every call of
 * multi-agent v1 (`spawnAgent`, `sendInput`, `wait`, `closeAgent`, `resumeAgent`).
 */
export interface CollabAgentToolCallTurnItem extends Timed {
  readonly kind: 'collabAgentToolCall';
  readonly tool: 'spawnAgent' | 'sendInput' | 'wait' | 'closeAgent' | 'resumeAgent';
  readonly status: TurnItemStatus;
  readonly senderThreadId: string;
  readonly receiverThreadIds: readonly string[];
  /** The message a spawn or an input carries. */
  readonly prompt?: string | null | undefined;
  /** A spawn's model and effort ("" and the caller's effort while it starts). */
  readonly model?: string | null | undefined;
  readonly reasoningEffort?: string | null | undefined;
  readonly agentsStates: Readonly<Record<string, CollabAgentState>>;
}

/** Something a sub-agent did, shown on its parent's thread (Codex's `subAgentActivity`). */
export interface SubAgentActivityTurnItem {
  readonly kind: 'subAgentActivity';
  readonly id: string;
  readonly activity: 'started' | 'interacted' | 'interrupted' | 'completed';
  readonly agentThreadId: string;
  readonly agentPath: string;
  readonly model: string | null;
  readonly reasoningEffort: string | null;
  readonly startedAtMs: number;
  readonly completedAtMs: number | null;
}

/** What a hook told the model to go on with (a Stop hook's block), shown as Codex's `hookPrompt` item. */
export interface HookPromptTurnItem extends Timed {
  readonly kind: 'hookPrompt';
  readonly fragments: readonly { readonly hookRunId: string; readonly text: string }[];
}

/** Any item of a turn. */
export type TurnItem =
  | HookPromptTurnItem
  | AgentMessageTurnItem
  | ReasoningTurnItem
  | CommandTurnItem
  | FileChangeTurnItem
  | ImageViewTurnItem
  | ContextCompactionTurnItem
  | WebSearchTurnItem
  | McpToolCallTurnItem
  | CollabAgentToolCallTurnItem
  | SubAgentActivityTurnItem;
