// Turns the engine's events into `exec --json` lines: item ids `item_N` counting up per process,
// completed agent messages and reasoning summaries, and one usage total per turn.
import type { CoreEvent } from '@skein/core';
import { isKnownResponseItem, messageText, type ExecEvent, type ExecUsage, type ResponseItem } from '@skein/protocol';

/** Maps one process's events; keep one instance for the whole `exec` run (ids continue across turns). */
export class ExecEventMapper {
  #nextItem = 0;
  #usage: ExecUsage = emptyUsage();
  /** Item ids of commands still running, by call id. */
  readonly #commands = new Map<string, string>();

  /** The lines for a thread that is starting or resuming (`exec resume` repeats it with the same id). */
  threadStarted(threadId: string): ExecEvent[] {
    return [{ type: 'thread.started', thread_id: threadId }];
  }

  /** The lines `event` produces, possibly none. */
  map(event: CoreEvent): ExecEvent[] {
    switch (event.type) {
      case 'turnStarted':
        this.#usage = emptyUsage();
        return [{ type: 'turn.started' }];
      case 'itemCompleted':
        return this.#completed(event.item);
      case 'tokenUsage':
        this.#usage = {
          input_tokens: this.#usage.input_tokens + event.usage.input_tokens,
          cached_input_tokens: this.#usage.cached_input_tokens + (event.usage.input_tokens_details?.cached_tokens ?? 0),
          cache_write_input_tokens: this.#usage.cache_write_input_tokens,
          output_tokens: this.#usage.output_tokens + event.usage.output_tokens,
          reasoning_output_tokens: this.#usage.reasoning_output_tokens + (event.usage.output_tokens_details?.reasoning_tokens ?? 0),
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
        return [{ type: 'turn.failed', error: { message: 'the turn was interrupted' } }];
      case 'commandStarted': {
        const id = this.#id();
        this.#commands.set(event.callId, id);
        return [{ type: 'item.started', item: { id, type: 'command_execution', command: event.command, aggregated_output: '', exit_code: null, status: 'in_progress' } }];
      }
      case 'commandCompleted': {
        const id = this.#commands.get(event.callId) ?? this.#id();
        this.#commands.delete(event.callId);
        return [
          {
            type: 'item.completed',
            item: {
              id,
              type: 'command_execution',
              command: event.command,
              aggregated_output: event.aggregatedOutput,
              exit_code: event.exitCode,
              status: event.exitCode === 0 ? 'completed' : 'failed',
            },
          },
        ];
      }
      case 'patchApplied': {
        const id = this.#id();
        const changes = event.changes.map((change) => ({ path: change.movePath ?? change.path, kind: change.kind }));
        return [
          { type: 'item.started', item: { id, type: 'file_change', changes, status: 'in_progress' } },
          { type: 'item.completed', item: { id, type: 'file_change', changes, status: event.success ? 'completed' : 'failed' } },
        ];
      }
      case 'sessionConfigured':
      case 'threadTokenUsage':
      case 'imageViewed':
      case 'threadNameUpdated':
      case 'commandOutputDelta':
      case 'itemStarted':
      case 'agentMessageDelta':
      case 'reasoningSummaryDelta':
      case 'streamRetrying':
      case 'warning':
      case 'toolProgress': // Codex's JSON stream has no progress event for a running tool.
        return [];
    }
  }

  #completed(item: ResponseItem): ExecEvent[] {
    if (!isKnownResponseItem(item)) return [];
    if (item.type === 'message' && item.role === 'assistant') {
      return [{ type: 'item.completed', item: { id: this.#id(), type: 'agent_message', text: messageText(item) } }];
    }
    if (item.type === 'reasoning' && item.summary.length > 0) {
      return [{ type: 'item.completed', item: { id: this.#id(), type: 'reasoning', text: item.summary.map((part) => part.text).join('\n\n') } }];
    }
    return [];
  }

  #id(): string {
    return `item_${this.#nextItem++}`;
  }
}

function emptyUsage(): ExecUsage {
  return { input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0 };
}
