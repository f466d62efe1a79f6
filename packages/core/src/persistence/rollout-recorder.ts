// The ThreadRecorder that writes Codex-format rollout lines through @skein/rollout's writer: items as
// `response_item`, turn settings as `turn_context`, world state, extensions' durable thread state
// (`skein_extension_state`), and the turn lifecycle events.
// Lines are appended in the order they are recorded; `flush` makes them durable.
import type { RolloutItem, ThreadWriter } from '@skein/rollout';
import type { ExtensionStateRecord } from '../extensions/thread-extension-state.js';
import type { CoreEvent } from '../turn/core-event.js';
import { codexErrorInfoOf, rolloutErrorInfo } from '../turn/codex-error-info.js';
import type { TurnFileChange, TurnItem } from '../turn/turn-item.js';
import type { CompactionRecord, RealtimeItemRecord, ThreadRecorder, TurnContextRecord, UserMessageRecord, WorldStateRecord } from '../session/thread-recorder.js';
import type { ResponseItem, UserInput } from '@skein/protocol';
import { rolloutUsage } from '../session/thread-token-usage.js';

/** Records one thread into its rollout file. */
export class RolloutThreadRecorder implements ThreadRecorder {
  readonly #writer: ThreadWriter;
  #chain: Promise<void> = Promise.resolve();
  #failure: Error | undefined;

  constructor(writer: ThreadWriter) {
    this.#writer = writer;
  }

  recordItems(items: readonly ResponseItem[]): void {
    // As Codex records it, a message between agents follows a marker saying whether it started the turn.
    this.#append(
      items.flatMap((item): RolloutItem[] => [
        ...(item.type === 'agent_message' ? [{ type: 'inter_agent_communication_metadata' as const, payload: { trigger_turn: startsTurn(item) } }] : []),
        { type: 'response_item', payload: item },
      ]),
    );
  }

  /** Codex's `item_completed` line for the user's message of `turnId`, under the id its host showed. */
  recordUserMessage(turnId: string, message: UserMessageRecord, content: readonly UserInput[]): void {
    const item = { type: 'UserMessage', id: message.id, ...(message.clientId === null ? {} : { client_id: message.clientId }), content };
    this.#append([{ type: 'event_msg', payload: { type: 'item_completed', turn_id: turnId, item } }]);
  }

  recordTurnContext(context: TurnContextRecord): void {
    this.#append([
      {
        type: 'turn_context',
        payload: {
          turn_id: context.turnId,
          cwd: context.cwd,
          current_date: context.currentDate,
          timezone: context.timezone,
          approval_policy: context.approvalPolicy,
          sandbox_policy: context.sandboxPolicy,
          model: context.model,
          effort: context.reasoningEffort ?? null,
          summary: context.reasoningSummary ?? 'none',
          ...(context.workspaceRoots === undefined ? {} : { runtime_workspace_roots: context.workspaceRoots }),
          ...(context.multiAgentMode === undefined ? {} : { multi_agent_mode: context.multiAgentMode }),
        },
      },
    ]);
  }

  recordCompaction(compaction: CompactionRecord): void {
    const { window } = compaction;
    this.#append([
      {
        type: 'compacted',
        payload: {
          message: compaction.message,
          replacement_history: [...compaction.replacementHistory],
          window_number: window.windowNumber,
          window_id: window.windowId,
          first_window_id: window.firstWindowId,
          ...(window.previousWindowId === undefined ? {} : { previous_window_id: window.previousWindowId }),
        },
      },
    ]);
  }

  recordWorldState(sections: readonly WorldStateRecord[]): void {
    this.#append([{ type: 'world_state', payload: { full: false, state: Object.fromEntries(sections.map((section) => [section.sectionId, section.snapshot])) } }]);
  }

  recordExtensionState(change: ExtensionStateRecord): void {
    const { extensionId: extension_id, key, value } = change;
    this.#append([{ type: 'skein_extension_state', payload: value === undefined ? { extension_id, key, deleted: true } : { extension_id, key, value } }]);
  }

  recordRealtimeItem(item: RealtimeItemRecord): void {
    this.#append([{ type: 'realtime_item', payload: { ...item } }]);
  }

  recordEvent(event: CoreEvent): void {
    switch (event.type) {
      case 'turnStarted':
        this.#append([{ type: 'event_msg', payload: { type: 'task_started', turn_id: event.turnId } }]);
        break;
      case 'turnCompleted':
        this.#append([{ type: 'event_msg', payload: { type: 'task_complete', turn_id: event.turnId, last_agent_message: event.lastAgentMessage ?? null } }]);
        break;
      case 'threadTokenUsage':
        this.#append([
          {
            type: 'event_msg',
            payload: {
              type: 'token_count',
              info: { total_token_usage: rolloutUsage(event.total), last_token_usage: rolloutUsage(event.last), model_context_window: event.modelContextWindow },
              rate_limits: null,
            },
          },
        ]);
        break;
      case 'turnItem':
        // Codex records commands that ran and applied (or failed) patches, so thread/read can show them with their turn.
        if (event.phase === 'completed') this.#itemCompleted(event.turnId, event.item);
        break;
      case 'threadRolledBack':
        this.#append([{ type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: event.numTurns } }]);
        break;
      case 'threadNameUpdated':
        this.#append([{ type: 'event_msg', payload: { type: 'thread_name_updated', thread_id: event.threadId, thread_name: event.name } }]);
        break;
      // The goal's every change, so a resumed thread has its goal back (cleared: `goal: null`).
      case 'goalUpdated':
        this.#append([{ type: 'event_msg', payload: { type: 'thread_goal_updated', turn_id: event.turnId, goal: event.goal } }]);
        break;
      case 'goalCleared':
        this.#append([{ type: 'event_msg', payload: { type: 'thread_goal_updated', turn_id: null, goal: null } }]);
        break;
      case 'turnAborted':
        this.#append([{ type: 'event_msg', payload: { type: 'turn_aborted', turn_id: event.turnId, reason: event.reason } }]);
        break;
      case 'turnFailed': {
        // The error line is kept only in the extended policy; task_complete closes the turn either
        // way and, as Codex's, carries the error.
        const info = codexErrorInfoOf(event.error);
        const error = { message: event.error.message, ...(info === undefined ? {} : { codex_error_info: rolloutErrorInfo(info) }) };
        this.#append([
          { type: 'event_msg', payload: { type: 'error', message: event.error.message } },
          { type: 'event_msg', payload: { type: 'task_complete', turn_id: event.turnId, last_agent_message: null, error } },
        ]);
        break;
      }
      default:
        // Deltas, item and usage events are not part of the persisted record.
        break;
    }
  }

  /** Codex's `item_completed` line for a finished command or patch of `turnId`. */
  #itemCompleted(turnId: string, item: TurnItem): void {
    const recorded = rolloutItem(item);
    if (recorded !== undefined) this.#append([{ type: 'event_msg', payload: { type: 'item_completed', turn_id: turnId, item: recorded } }]);
  }

  /** Waits for every recorded line and makes them durable; rethrows the first write failure since the last flush. */
  async flush(): Promise<void> {
    await this.#chain;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) throw failure;
    await this.#writer.flush();
  }

  /** Waits until every recorded line is where a killed process keeps it (see `ThreadRecorder.written`). */
  async written(): Promise<void> {
    await this.#writer.written();
  }

  /** Flushes and releases the file. */
  async close(): Promise<void> {
    await this.#chain;
    await this.#writer.close();
    if (this.#failure !== undefined) throw this.#failure;
  }

  // Lines go to the writer at once (a writer queues them in the order of its calls), so `written`
  // need not wait behind an earlier append's fsync.
  #append(lines: RolloutItem[]): void {
    const appended = this.#writer.append(...lines).catch((error: unknown) => {
      // Later lines still go to the writer, which knows whether it can take them: a file writer
      // that failed refuses every later line (no gap in the record), a database writer keeps the
      // failed batch and writes it with the next one. The first failure is `flush`'s to report.
      this.#failure ??= error instanceof Error ? error : new Error(String(error));
    });
    this.#chain = Promise.all([this.#chain, appended]).then(() => undefined);
  }
}

/** Whether an agent message started its recipient's turn: a NEW_TASK does (a message to a working agent is a MESSAGE). */
function startsTurn(item: ResponseItem): boolean {
  const content = (item as { content?: readonly { text?: unknown }[] }).content;
  const header = content?.[0]?.text;
  return typeof header === 'string' && header.startsWith('Message Type: NEW_TASK\n');
}

/** A finished item in Codex's rollout form; undefined for items Codex does not record this way. */
function rolloutItem(item: TurnItem): Record<string, unknown> | undefined {
  switch (item.kind) {
    case 'commandExecution': {
      // A command that never ran (declined) has no record.
      if (!item.executed || item.argv === null) return undefined;
      const durationMs = item.durationMs ?? 0;
      return {
        type: 'CommandExecution',
        id: item.id,
        process_id: item.processId,
        command: item.argv,
        cwd: `file://${item.cwd}`,
        parsed_cmd: [{ type: 'unknown', cmd: item.argv.at(-1) ?? item.command }],
        source: item.source === 'userShell' ? 'user_shell' : 'unified_exec_startup',
        status: item.exitCode === 0 ? 'completed' : 'failed',
        aggregated_output: item.aggregatedOutput ?? '',
        exit_code: item.exitCode,
        duration: rolloutDuration(durationMs),
      };
    }
    case 'fileChange': {
      const success = item.status === 'completed';
      const output = item.output ?? '';
      return {
        type: 'FileChange',
        id: item.id,
        changes: Object.fromEntries(item.changes.map((change) => [change.path, rolloutFileChange(change)])),
        status: success ? 'completed' : 'failed',
        stdout: success ? output : '',
        stderr: success ? '' : output,
      };
    }
    case 'contextCompaction':
      return item.status === 'completed' ? { type: 'ContextCompaction', id: item.id } : undefined;
    case 'webSearch':
      return { type: 'WebSearch', id: item.id, query: item.query, action: item.action };
    case 'mcpToolCall': {
      const durationMs = item.durationMs ?? 0;
      return {
        type: 'McpToolCall',
        id: item.id,
        server: item.server,
        tool: item.tool,
        arguments: item.arguments,
        ...(item.readOnlyHint === null ? {} : { readOnlyHint: item.readOnlyHint }),
        status: item.status === 'completed' ? 'completed' : 'failed',
        ...(item.result === null ? {} : { result: { content: item.result.content, ...(item.result.structuredContent === null ? {} : { structuredContent: item.result.structuredContent }), isError: item.status !== 'completed' } }),
        ...(item.error === null ? {} : { error: item.error }),
        duration: rolloutDuration(durationMs),
      };
    }
    case 'agentMessage':
      // A message a tool showed is in no history item: its line is what a read shows again.
      if (item.delivery !== 'async') return undefined;
      return {
        type: 'AgentMessage',
        id: item.id,
        content: [{ type: 'Text', text: item.text }],
        phase: item.phase,
        delivery: item.delivery,
        ...(item.questions === undefined ? {} : { questions: item.questions }),
      };
    case 'reasoning':
    case 'imageView':
    case 'collabAgentToolCall':
    case 'subAgentActivity':
    case 'hookPrompt':
      // Messages, reasoning and hook prompts are in the history (a wait's call and output too); image views are not recorded.
      return undefined;
  }
}

/** A duration as Rust's `Duration` serializes in Codex's rollout lines. */
function rolloutDuration(durationMs: number): { secs: number; nanos: number } {
  return { secs: Math.floor(durationMs / 1000), nanos: Math.round((durationMs % 1000) * 1e6) };
}

/** One file of a patch in Codex's rollout form: contents for adds and deletes, hunks for updates. */
function rolloutFileChange(change: TurnFileChange): Record<string, unknown> {
  if (change.kind === 'update') return { type: 'update', unified_diff: change.diff ?? '', move_path: change.movePath ?? null };
  return { type: change.kind, content: change.diff ?? '' };
}
