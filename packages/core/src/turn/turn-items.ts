// The one item reducer: follows a thread's core events (and its approval questions) and tells, per
// turn, when an item starts and completes, with its state. Each open item keeps the turn it began
// in; a new turn starts with no open items, so what a command of an earlier turn still prints once
// the next one has begun belongs to no item.
import { isKnownResponseItem, messageText, parseHookPrompt, type ResponseItem } from '@skein/protocol';
import type { CommandApprovalRequest, FileChangeApprovalRequest } from '../session/client-requests.js';
import type { CoreEvent } from './core-event.js';
import type { CommandTurnItem, FileChangeTurnItem, HookPromptTurnItem, TurnItem, WebSearchTurnItem } from './turn-item.js';

/** The open items of the running turn, and the events their changes produce. */
export class TurnItems {
  /** Open commands and patches with the turn each belongs to (a command may end while the next turn starts). */
  readonly #commands = new Map<string, { readonly turnId: string; readonly item: CommandTurnItem }>();
  readonly #patches = new Map<string, { readonly turnId: string; readonly item: FileChangeTurnItem }>();
  readonly #messages = new Map<string, number>();
  /** Open compactions: item id → when it started. */
  readonly #compactions = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** The item events `event` leads to (none for most events). */
  observe(event: CoreEvent): CoreEvent[] {
    switch (event.type) {
      case 'turnStarted':
        this.#commands.clear();
        this.#patches.clear();
        this.#messages.clear();
        return [];
      case 'itemStarted':
        return this.#responseItemStarted(event.turnId, event.item);
      case 'itemCompleted':
        return this.#responseItemCompleted(event.turnId, event.item);
      case 'commandStarted': {
        const open = this.#commands.get(event.callId);
        const known = open?.item;
        const item: CommandTurnItem = {
          kind: 'commandExecution',
          id: event.callId,
          command: event.command,
          cmd: event.cmd,
          argv: null,
          cwd: event.cwd,
          source: event.source,
          executed: true,
          awaitingApproval: false,
          status: 'inProgress',
          processId: null,
          aggregatedOutput: null,
          exitCode: null,
          durationMs: null,
          startedAtMs: known?.startedAtMs ?? this.now(),
          completedAtMs: null,
        };
        const turnId = open?.turnId ?? event.turnId;
        this.#commands.set(event.callId, { turnId, item });
        // A command the user approved was shown when the question was asked.
        return known === undefined ? [started(turnId, item)] : [];
      }
      case 'commandOutputDelta': {
        const open = this.#commands.get(event.callId);
        if (open === undefined) return [];
        return [{ type: 'turnItemOutputDelta', turnId: open.turnId, itemId: event.callId, delta: event.chunk }];
      }
      case 'commandCompleted': {
        const open = this.#commands.get(event.callId);
        if (open === undefined) return [];
        this.#commands.delete(event.callId);
        const item: CommandTurnItem = {
          ...open.item,
          argv: event.argv,
          status: event.exitCode === 0 ? 'completed' : 'failed',
          processId: event.processId,
          exitCode: event.exitCode,
          aggregatedOutput: event.aggregatedOutput,
          durationMs: Math.round(event.durationMs),
          completedAtMs: this.now(),
        };
        return [completed(open.turnId, item)];
      }
      case 'patchApplied': {
        const open = this.#patches.get(event.callId);
        const known = open?.item;
        const turnId = open?.turnId ?? event.turnId;
        this.#patches.delete(event.callId);
        const now = this.now();
        const base: FileChangeTurnItem = known ?? { kind: 'fileChange', id: event.callId, changes: event.changes, awaitingApproval: false, status: 'inProgress', output: null, startedAtMs: now, completedAtMs: null };
        const status = event.success ? 'completed' : known?.status === 'declined' ? 'declined' : 'failed';
        const item: FileChangeTurnItem = { ...base, changes: event.changes, awaitingApproval: false, status, output: event.output, completedAtMs: now };
        return [...(known === undefined ? [started(turnId, base)] : []), completed(turnId, item)];
      }
      case 'compactionStarted': {
        const startedAtMs = this.now();
        this.#compactions.set(event.itemId, startedAtMs);
        return [started(event.turnId, { kind: 'contextCompaction', id: event.itemId, status: 'inProgress', startedAtMs, completedAtMs: null })];
      }
      case 'compactionEnded': {
        const startedAtMs = this.#compactions.get(event.itemId);
        if (startedAtMs === undefined) return [];
        this.#compactions.delete(event.itemId);
        return [completed(event.turnId, { kind: 'contextCompaction', id: event.itemId, status: event.status, startedAtMs, completedAtMs: this.now() })];
      }
      case 'imageViewed': {
        const now = this.now();
        const item: TurnItem = { kind: 'imageView', id: event.callId, path: event.path, startedAtMs: now, completedAtMs: now };
        return [started(event.turnId, { ...item, completedAtMs: null }), completed(event.turnId, item)];
      }
      default:
        return [];
    }
  }

  /** A command waits on the client: its item starts now, marked as awaiting approval. */
  commandAwaitingApproval(request: CommandApprovalRequest): CoreEvent[] {
    const item: CommandTurnItem = {
      kind: 'commandExecution',
      id: request.callId,
      command: request.command,
      cmd: request.script,
      argv: null,
      cwd: request.cwd,
      source: 'agent',
      executed: false,
      awaitingApproval: true,
      status: 'inProgress',
      processId: null,
      aggregatedOutput: null,
      exitCode: null,
      durationMs: null,
      startedAtMs: this.now(),
      completedAtMs: null,
    };
    this.#commands.set(request.callId, { turnId: request.turnId, item });
    return [started(request.turnId, item)];
  }

  /** The client answered a command's approval: a declined one completes as declined; an approved one runs next. */
  commandAnswered(request: CommandApprovalRequest, declined: boolean): CoreEvent[] {
    const open = this.#commands.get(request.callId);
    if (open === undefined) return [];
    if (!declined) {
      this.#commands.set(request.callId, { ...open, item: { ...open.item, awaitingApproval: false } });
      return [];
    }
    this.#commands.delete(request.callId);
    return [completed(open.turnId, { ...open.item, awaitingApproval: false, status: 'declined', completedAtMs: this.now() })];
  }

  /** A patch waits on the client: its item starts now with the planned changes. */
  patchAwaitingApproval(request: FileChangeApprovalRequest): CoreEvent[] {
    const item: FileChangeTurnItem = { kind: 'fileChange', id: request.callId, changes: request.changes, awaitingApproval: true, status: 'inProgress', output: null, startedAtMs: this.now(), completedAtMs: null };
    this.#patches.set(request.callId, { turnId: request.turnId, item });
    return [started(request.turnId, item)];
  }

  /** The client answered a patch's approval; the patch tool reports the outcome (a declined patch completes as declined). */
  patchAnswered(request: FileChangeApprovalRequest, declined: boolean): void {
    const open = this.#patches.get(request.callId);
    if (open !== undefined) this.#patches.set(request.callId, { ...open, item: { ...open.item, awaitingApproval: false, status: declined ? 'declined' : 'inProgress' } });
  }

  #responseItemStarted(turnId: string, item: ResponseItem): CoreEvent[] {
    if (!isKnownResponseItem(item) || typeof item.id !== 'string') return [];
    const now = this.now();
    if (item.type === 'message' && item.role === 'assistant') {
      this.#messages.set(item.id, now);
      return [started(turnId, { kind: 'agentMessage', id: item.id, text: '', phase: item.phase ?? null, startedAtMs: now, completedAtMs: null })];
    }
    if (item.type === 'reasoning') {
      this.#messages.set(item.id, now);
      return [started(turnId, { kind: 'reasoning', id: item.id, ...reasoningParts(item), startedAtMs: now, completedAtMs: null })];
    }
    if (item.type === 'web_search_call') {
      this.#messages.set(item.id, now);
      return [started(turnId, { kind: 'webSearch', id: item.id, query: '', action: { type: 'other' }, startedAtMs: now, completedAtMs: null })];
    }
    return [];
  }

  #responseItemCompleted(turnId: string, item: ResponseItem): CoreEvent[] {
    if (!isKnownResponseItem(item) || typeof item.id !== 'string') return [];
    const now = this.now();
    const startedAtMs = this.#messages.get(item.id) ?? now;
    if (item.type === 'message' && item.role === 'assistant') {
      this.#messages.delete(item.id);
      return [completed(turnId, { kind: 'agentMessage', id: item.id, text: messageText(item), phase: item.phase ?? null, startedAtMs, completedAtMs: now })];
    }
    const hookPrompt = item.type === 'message' && item.role === 'user' ? parseHookPrompt(messageText(item)) : undefined;
    if (hookPrompt !== undefined) {
      const prompt: HookPromptTurnItem = { kind: 'hookPrompt', id: item.id, fragments: [{ hookRunId: hookPrompt.runId, text: hookPrompt.text }], startedAtMs: now, completedAtMs: null };
      return [started(turnId, prompt), completed(turnId, { ...prompt, completedAtMs: now })];
    }
    if (item.type === 'reasoning') {
      this.#messages.delete(item.id);
      return [completed(turnId, { kind: 'reasoning', id: item.id, ...reasoningParts(item), startedAtMs: now, completedAtMs: now })];
    }
    if (item.type === 'web_search_call') {
      const announced = this.#messages.delete(item.id);
      const search = webSearchOf(item);
      // A search that was never announced as started (a stream without `output_item.added`) starts now.
      return [...(!announced ? [started(turnId, { kind: 'webSearch', id: item.id, query: '', action: { type: 'other' }, startedAtMs, completedAtMs: null })] : []), completed(turnId, { kind: 'webSearch', id: item.id, ...search, startedAtMs, completedAtMs: now })];
    }
    return [];
  }
}

/** What a finished search item says was searched: the action's query (else its first query) and the action itself. */
export function webSearchOf(item: Extract<ResponseItem, { type: 'web_search_call' }>): { query: string; action: WebSearchTurnItem['action'] } {
  const action = item.action ?? { type: 'other' };
  const queries = Array.isArray(action['queries']) ? action['queries'] : [];
  const query = typeof action['query'] === 'string' ? action['query'] : typeof queries[0] === 'string' ? queries[0] : '';
  return { query, action };
}

function started(turnId: string, item: TurnItem): CoreEvent {
  return { type: 'turnItem', phase: 'started', turnId, item };
}

function completed(turnId: string, item: TurnItem): CoreEvent {
  return { type: 'turnItem', phase: 'completed', turnId, item };
}

function reasoningParts(item: Extract<ResponseItem, { type: 'reasoning' }>): { summary: string[]; content: string[] } {
  const texts = (parts: readonly { readonly text?: unknown }[] | null | undefined) => (parts ?? []).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
  return { summary: texts(item.summary), content: texts(item.content) };
}
