// Turns the engine's events into `exec --json` lines: item ids `item_N` counting up per process,
// core's turn items (agent messages, reasoning summaries, commands, file changes) as item lines, and
// the thread's running token total at the end of each turn, as Codex reports it (after `exec resume`
// it includes the earlier turns).
import type { CoreEvent, TurnItem } from '@skein/core';
import type { ExecEvent, ExecUsage } from '@skein/protocol';

/** Maps one process's events; keep one instance for the whole `exec` run (ids continue across turns). */
export class ExecEventMapper {
  #nextItem = 0;
  #usage: ExecUsage = emptyUsage();
  /** Line ids of items still open, by core's item id. */
  readonly #open = new Map<string, string>();

  /** The lines for a thread that is starting or resuming (`exec resume` repeats it with the same id). */
  threadStarted(threadId: string): ExecEvent[] {
    return [{ type: 'thread.started', thread_id: threadId }];
  }

  /** The lines `event` produces, possibly none. */
  map(event: CoreEvent): ExecEvent[] {
    switch (event.type) {
      case 'turnStarted':
        return [{ type: 'turn.started' }];
      case 'threadTokenUsage':
        this.#usage = {
          input_tokens: event.total.inputTokens,
          cached_input_tokens: event.total.cachedInputTokens,
          cache_write_input_tokens: event.total.cacheWriteInputTokens,
          output_tokens: event.total.outputTokens,
          reasoning_output_tokens: event.total.reasoningOutputTokens,
        };
        return [];
      case 'turnCompleted':
        return [{ type: 'turn.completed', usage: this.#usage }];
      case 'turnFailed':
        return [
          { type: 'error', message: event.error.message },
          { type: 'turn.failed', error: { message: event.error.message } },
        ];
      case 'turnAborted':
        return [{ type: 'turn.failed', error: { message: event.error?.message ?? 'the turn was interrupted' } }];
      case 'turnItem':
        return event.phase === 'started' ? this.#started(event.item) : this.#completed(event.item);
      // The facts core reduces into turn items are not lines of their own.
      case 'itemStarted':
      case 'itemCompleted':
      case 'commandStarted':
      case 'commandOutputDelta':
      case 'commandCompleted':
      case 'patchApplied':
      case 'imageViewed':
      case 'compactionStarted': // Codex's JSON stream shows nothing of a compaction.
      case 'compactionEnded':
      case 'turnItemOutputDelta':
      case 'sessionConfigured':
      case 'tokenUsage': // One response's usage; a turn reports the thread's total (threadTokenUsage).
      case 'threadNameUpdated':
      case 'threadRolledBack':
      case 'turnDiffUpdated': // The app-server's turn/diff/updated; Codex's JSON stream has no such event.
      case 'agentMessageDelta':
      case 'reasoningSummaryDelta':
      case 'streamRetrying':
      case 'warning':
      case 'toolProgress': // Codex's JSON stream has no progress event for a running tool.
      case 'mcpToolCallProgress': // Nor for an MCP call's progress.
      case 'mcpServerStatus': // An MCP server's start shows on stderr, not in the stream.
      case 'goalUpdated': // Codex's JSON stream shows nothing of goals.
      case 'goalCleared':
      case 'safetyBuffering': // Nor of a safety-buffered response (probed); the held output arrives as usual.
      case 'hookRun': // Hook runs are the app-server's hook/started and hook/completed; the JSON stream has no such line.
        return [];
    }
  }

  #started(item: TurnItem): ExecEvent[] {
    switch (item.kind) {
      case 'commandExecution':
        return [{ type: 'item.started', item: { id: this.#openId(item.id), type: 'command_execution', command: item.command, aggregated_output: '', exit_code: null, status: 'in_progress' } }];
      case 'fileChange':
        return [{ type: 'item.started', item: { id: this.#openId(item.id), type: 'file_change', changes: fileChanges(item), status: 'in_progress' } }];
      // Codex's line carries the model's item id, though the line counter still advances for it.
      case 'webSearch':
        this.#openId(item.id);
        return [{ type: 'item.started', item: { id: item.id, type: 'web_search', query: item.query, action: item.action } }];
      case 'collabAgentToolCall':
        return [{ type: 'item.started', item: { id: this.#openId(item.id), ...collabToolCall(item) } }];
      case 'mcpToolCall':
        return [{ type: 'item.started', item: { id: this.#openId(item.id), ...mcpToolCall(item) } }];
      // Messages and reasoning are printed once complete; Codex prints no image views, nor spawns.
      case 'subAgentActivity':
      case 'agentMessage':
      case 'reasoning':
      case 'imageView':
      case 'contextCompaction':
      case 'hookPrompt':
        return [];
    }
  }

  #completed(item: TurnItem): ExecEvent[] {
    switch (item.kind) {
      case 'agentMessage':
        return [{ type: 'item.completed', item: { id: this.#id(), type: 'agent_message', text: item.text } }];
      case 'reasoning':
        return item.summary.length === 0 ? [] : [{ type: 'item.completed', item: { id: this.#id(), type: 'reasoning', text: item.summary.join('\n\n') } }];
      case 'commandExecution':
        return [
          {
            type: 'item.completed',
            item: {
              id: this.#closeId(item.id),
              type: 'command_execution',
              command: item.command,
              aggregated_output: item.aggregatedOutput ?? '',
              exit_code: item.exitCode,
              status: item.status === 'inProgress' ? 'failed' : item.status,
            },
          },
        ];
      case 'fileChange':
        return [{ type: 'item.completed', item: { id: this.#closeId(item.id), type: 'file_change', changes: fileChanges(item), status: item.status === 'completed' ? 'completed' : 'failed' } }];
      case 'webSearch':
        this.#closeId(item.id);
        return [{ type: 'item.completed', item: { id: item.id, type: 'web_search', query: item.query, action: item.action } }];
      case 'collabAgentToolCall':
        return [{ type: 'item.completed', item: { id: this.#closeId(item.id), ...collabToolCall(item) } }];
      case 'mcpToolCall':
        return [{ type: 'item.completed', item: { id: this.#closeId(item.id), ...mcpToolCall(item) } }];
      case 'imageView':
      case 'contextCompaction':
      case 'subAgentActivity':
      case 'hookPrompt':
        return [];
    }
  }

  #openId(itemId: string): string {
    const id = this.#id();
    this.#open.set(itemId, id);
    return id;
  }

  #closeId(itemId: string): string {
    const id = this.#open.get(itemId) ?? this.#id();
    this.#open.delete(itemId);
    return id;
  }

  #id(): string {
    return `item_${this.#nextItem++}`;
  }
}

/** A collaboration call's line, in Codex's snake_case. */
function collabToolCall(item: Extract<TurnItem, { kind: 'collabAgentToolCall' }>) {
  return {
    type: 'collab_tool_call' as const,
    tool: EXEC_COLLAB_TOOLS[item.tool],
    sender_thread_id: item.senderThreadId,
    receiver_thread_ids: [...item.receiverThreadIds],
    prompt: item.prompt ?? null,
    agents_states: Object.fromEntries(Object.entries(item.agentsStates).map(([id, state]) => [id, { status: snakeCase(state.status), message: state.message }])),
    status: item.status === 'inProgress' ? ('in_progress' as const) : item.status === 'completed' ? ('completed' as const) : ('failed' as const),
  };
}

/** Codex's exec names of the collaboration tools; it prints resume_agent as `wait`, and so does Skein. */
const EXEC_COLLAB_TOOLS = { spawnAgent: 'spawn_agent', sendInput: 'send_input', wait: 'wait', closeAgent: 'close_agent', resumeAgent: 'wait' } as const;

function snakeCase(word: string): string {
  return word.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** An MCP tool call as Codex's exec prints it: the result's content, its structured content (null when none). */
function mcpToolCall(item: Extract<TurnItem, { kind: 'mcpToolCall' }>) {
  return {
    type: 'mcp_tool_call' as const,
    server: item.server,
    tool: item.tool,
    arguments: item.arguments,
    result: item.result === null ? null : { content: [...item.result.content], structured_content: item.result.structuredContent ?? null },
    error: item.error,
    status: item.status === 'inProgress' ? ('in_progress' as const) : item.status === 'completed' ? ('completed' as const) : ('failed' as const),
  };
}

/** A patch's files as Codex prints them: a moved file under its new path. */
function fileChanges(item: Extract<TurnItem, { kind: 'fileChange' }>): { path: string; kind: 'add' | 'update' | 'delete' }[] {
  return item.changes.map((change) => ({ path: change.movePath ?? change.path, kind: change.kind }));
}

function emptyUsage(): ExecUsage {
  return { input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0 };
}
