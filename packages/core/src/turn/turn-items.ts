// The one item reducer: follows a thread's core events (and its approval questions) and tells, per
// turn, when an item starts and completes, with its state. A new turn starts with no open items,
// so what a command of an earlier, interrupted turn still prints belongs to no item.
import { isKnownResponseItem, messageText, type ResponseItem } from '@skein/protocol';
import type { CommandApprovalRequest, FileChangeApprovalRequest } from '../session/client-requests.js';
import type { CoreEvent } from './core-event.js';
import type { CommandTurnItem, FileChangeTurnItem, TurnItem } from './turn-item.js';

/** The open items of the running turn, and the events their changes produce. */
export class TurnItems {
  #turnId: string | undefined;
  readonly #commands = new Map<string, CommandTurnItem>();
  readonly #patches = new Map<string, FileChangeTurnItem>();
  readonly #messages = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** The item events `event` leads to (none for most events). */
  observe(event: CoreEvent): CoreEvent[] {
    switch (event.type) {
      case 'turnStarted':
        this.#turnId = event.turnId;
        this.#commands.clear();
        this.#patches.clear();
        this.#messages.clear();
        return [];
      case 'itemStarted':
        return this.#responseItemStarted(event.turnId, event.item);
      case 'itemCompleted':
        return this.#responseItemCompleted(event.turnId, event.item);
      case 'commandStarted': {
        const known = this.#commands.get(event.callId);
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
        this.#commands.set(event.callId, item);
        // A command the user approved was shown when the question was asked.
        return known === undefined ? [started(event.turnId, item)] : [];
      }
      case 'commandOutputDelta':
        if (!this.#commands.has(event.callId) || this.#turnId === undefined) return [];
        return [{ type: 'turnItemOutputDelta', turnId: this.#turnId, itemId: event.callId, delta: event.chunk }];
      case 'commandCompleted': {
        const running = this.#commands.get(event.callId);
        if (running === undefined) return [];
        this.#commands.delete(event.callId);
        const item: CommandTurnItem = {
          ...running,
          argv: event.argv,
          status: event.exitCode === 0 ? 'completed' : 'failed',
          processId: event.processId,
          exitCode: event.exitCode,
          aggregatedOutput: event.aggregatedOutput,
          durationMs: Math.round(event.durationMs),
          completedAtMs: this.now(),
        };
        return [completed(event.turnId, item)];
      }
      case 'patchApplied': {
        const known = this.#patches.get(event.callId);
        this.#patches.delete(event.callId);
        const now = this.now();
        const base: FileChangeTurnItem = known ?? { kind: 'fileChange', id: event.callId, changes: event.changes, awaitingApproval: false, status: 'inProgress', output: null, startedAtMs: now, completedAtMs: null };
        const status = event.success ? 'completed' : known?.status === 'declined' ? 'declined' : 'failed';
        const item: FileChangeTurnItem = { ...base, changes: event.changes, awaitingApproval: false, status, output: event.output, completedAtMs: now };
        return [...(known === undefined ? [started(event.turnId, base)] : []), completed(event.turnId, item)];
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
    this.#commands.set(request.callId, item);
    return [started(request.turnId, item)];
  }

  /** The client answered a command's approval: a declined one completes as declined; an approved one runs next. */
  commandAnswered(request: CommandApprovalRequest, declined: boolean): CoreEvent[] {
    const item = this.#commands.get(request.callId);
    if (item === undefined) return [];
    if (!declined) {
      this.#commands.set(request.callId, { ...item, awaitingApproval: false });
      return [];
    }
    this.#commands.delete(request.callId);
    return [completed(request.turnId, { ...item, awaitingApproval: false, status: 'declined', completedAtMs: this.now() })];
  }

  /** A patch waits on the client: its item starts now with the planned changes. */
  patchAwaitingApproval(request: FileChangeApprovalRequest): CoreEvent[] {
    const item: FileChangeTurnItem = { kind: 'fileChange', id: request.callId, changes: request.changes, awaitingApproval: true, status: 'inProgress', output: null, startedAtMs: this.now(), completedAtMs: null };
    this.#patches.set(request.callId, item);
    return [started(request.turnId, item)];
  }

  /** The client answered a patch's approval; the patch tool reports the outcome (a declined patch completes as declined). */
  patchAnswered(request: FileChangeApprovalRequest, declined: boolean): void {
    const item = this.#patches.get(request.callId);
    if (item !== undefined) this.#patches.set(request.callId, { ...item, awaitingApproval: false, status: declined ? 'declined' : 'inProgress' });
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
    if (item.type === 'reasoning') {
      this.#messages.delete(item.id);
      return [completed(turnId, { kind: 'reasoning', id: item.id, ...reasoningParts(item), startedAtMs: now, completedAtMs: now })];
    }
    return [];
  }
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
