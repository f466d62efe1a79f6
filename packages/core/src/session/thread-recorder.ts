// Where a session persists what happens: the rollout writer in production (an adapter over
// @skein/rollout), an in-memory list in tests. Core only calls this interface.
import type { MultiAgentMode } from '../agents/agent-instructions.js';
import type { CoreSandboxPolicy, ResponseItem, UserInput } from '@skein/protocol';
import type { ContextWindow } from '../compaction/context-window.js';
import type { ExtensionStateRecord } from '../extensions/thread-extension-state.js';
import type { CoreEvent } from '../turn/core-event.js';

/** The settings a turn ran with; recorded once per user turn as the resume baseline. */
export interface TurnContextRecord {
  readonly turnId: string;
  readonly cwd: string;
  readonly model: string;
  readonly approvalPolicy: string;
  readonly sandboxPolicy: CoreSandboxPolicy;
  readonly reasoningEffort: string | undefined;
  readonly reasoningSummary: string | undefined;
  readonly currentDate: string;
  readonly timezone: string;
  /** The turn's workspace roots, when they are not the defaults for its cwd (a Skein addition to Codex's record). */
  readonly workspaceRoots?: readonly string[] | undefined;
  /** The thread's delegation mode, for a thread of an agent tree (restored on resume). */
  readonly multiAgentMode?: MultiAgentMode | undefined;
}

/** A world-state snapshot for one section, recorded so later turns (and resumes) diff against it. */
export interface WorldStateRecord {
  readonly sectionId: string;
  readonly snapshot: unknown;
}

/** A compaction: the summary, the history that replaces the old one, and the window it opens. */
export interface CompactionRecord {
  readonly message: string;
  readonly replacementHistory: readonly ResponseItem[];
  readonly window: ContextWindow;
}

/** A realtime conversation's item as recorded: `id`, `realtime_session_id`, `observed_at_ms`, `type` and its fields. */
export interface RealtimeItemRecord {
  readonly id: string;
  readonly realtime_session_id: string;
  readonly observed_at_ms: number;
  readonly type: string;
  readonly [field: string]: unknown;
}

/** The host's item for a user's message: its id, and the id the client gave it (`clientUserMessageId`). */
export interface UserMessageRecord {
  readonly id: string;
  readonly clientId: string | null;
}

/** Receives everything a session records, in order. */
export interface ThreadRecorder {
  recordItems(items: readonly ResponseItem[]): void;
  recordTurnContext(context: TurnContextRecord): void;
  /** The user's message of `turnId` as its host showed it (Codex's `item_completed` user-message line). */
  recordUserMessage(turnId: string, message: UserMessageRecord, content: readonly UserInput[]): void;
  recordWorldState(sections: readonly WorldStateRecord[]): void;
  /** A compaction; the rollout's `compacted` line (the replacement items are not also recorded as items). */
  recordCompaction(compaction: CompactionRecord): void;
  /** A change to an extension's durable thread store; made durable with the next flush (a turn's end, or closing). */
  recordExtensionState(change: ExtensionStateRecord): void;
  recordEvent(event: CoreEvent): void;
  /** One item of a realtime conversation beside the thread (a `realtime_item` line, in its snake_case shape). */
  recordRealtimeItem(item: RealtimeItemRecord): void;
  /** Makes everything recorded so far durable; called when a turn ends. */
  flush(): Promise<void>;
  /**
   * Resolves once everything recorded so far is where a killed process keeps it (a file: handed to
   * the OS, not fsynced; a database: committed). Called before each model request. A file's write
   * failure is `flush`'s to report; a store that cannot keep the record now (its database is away)
   * rejects, and the turn stops before the model is sent what was not kept.
   */
  written(): Promise<void>;
}

/** A recorder that keeps lines in memory, for tests and ephemeral threads. */
export class MemoryThreadRecorder implements ThreadRecorder {
  readonly lines: (
    | { readonly kind: 'items'; readonly items: readonly ResponseItem[] }
    | { readonly kind: 'turnContext'; readonly context: TurnContextRecord }
    | { readonly kind: 'userMessage'; readonly turnId: string; readonly message: UserMessageRecord }
    | { readonly kind: 'worldState'; readonly sections: readonly WorldStateRecord[] }
    | { readonly kind: 'compaction'; readonly compaction: CompactionRecord }
    | { readonly kind: 'extensionState'; readonly change: ExtensionStateRecord }
    | { readonly kind: 'event'; readonly event: CoreEvent }
    | { readonly kind: 'realtimeItem'; readonly item: RealtimeItemRecord }
  )[] = [];
  flushes = 0;

  recordItems(items: readonly ResponseItem[]): void {
    this.lines.push({ kind: 'items', items });
  }
  recordTurnContext(context: TurnContextRecord): void {
    this.lines.push({ kind: 'turnContext', context });
  }
  recordUserMessage(turnId: string, message: UserMessageRecord): void {
    this.lines.push({ kind: 'userMessage', turnId, message });
  }
  recordWorldState(sections: readonly WorldStateRecord[]): void {
    this.lines.push({ kind: 'worldState', sections });
  }
  recordCompaction(compaction: CompactionRecord): void {
    this.lines.push({ kind: 'compaction', compaction });
  }
  recordExtensionState(change: ExtensionStateRecord): void {
    this.lines.push({ kind: 'extensionState', change });
  }
  recordEvent(event: CoreEvent): void {
    this.lines.push({ kind: 'event', event });
  }
  recordRealtimeItem(item: RealtimeItemRecord): void {
    this.lines.push({ kind: 'realtimeItem', item });
  }
  flush(): Promise<void> {
    this.flushes += 1;
    return Promise.resolve();
  }
  written(): Promise<void> {
    return Promise.resolve();
  }
}
