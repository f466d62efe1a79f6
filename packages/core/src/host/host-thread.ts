// A thread opened through the host API: runs one turn at a time and hands each out as a TurnRun,
// routing core's events to the turn they belong to. Events of no turn (a command a finished turn
// left running still printing, an MCP server starting) go to `onOtherEvent`, if the host asked.
import { randomUUID } from 'node:crypto';
import { newTurnId, type ThreadItem, type UserInput } from '@skein/protocol';
import type { ThreadHandle } from '../thread-handle.js';
import type { CoreEvent } from '../turn/core-event.js';
import { userMessageItem } from '../wire/thread-items.js';
import { HostError } from './host-error.js';
import { turnErrorObject } from '../wire/turn-wire.js';
import type { TokenUsageSnapshot, TurnErrorInfo, TurnEvent, TurnObject, TurnStatus } from './turn-event.js';
import { turnNotifications } from './turn-notifications.js';
import { TurnRunQueue, type TurnRun } from './turn-run.js';

/** Options of {@link HostThread.run}. */
export interface RunOptions {
  /** A JSON Schema the turn's final answer must match (Structured Outputs). */
  readonly outputSchema?: unknown;
  /** Interrupts the turn when aborted. */
  readonly signal?: AbortSignal;
}

/** A loaded thread. Close it (or the runtime) to end its commands and release its file. */
export interface HostThread {
  readonly id: string;
  /** The rollout file; undefined for an ephemeral thread. */
  readonly path: string | undefined;
  /** The running turn's id, if any. */
  readonly activeTurnId: string | undefined;
  /** The thread's token usage so far. */
  readonly tokenUsage: TokenUsageSnapshot;
  /** Starts a turn; throws `TurnRunning` while another runs. */
  run(input: string | readonly UserInput[], options?: RunOptions): TurnRun;
  /** Adds input to the running turn (the model sees it at its next request). */
  steer(input: string | readonly UserInput[]): Promise<void>;
  /** Interrupts the running turn; throws `NoTurnRunning` when none runs. */
  interrupt(): void;
  close(): Promise<void>;
}

const asInput = (input: string | readonly UserInput[]): readonly UserInput[] => (typeof input === 'string' ? [{ type: 'text', text: input, text_elements: [] }] : input);

/** The HostThread over a core handle; core's events reach it through `onEvent` from the moment it opens. */
export class HostThreadImpl implements HostThread {
  #handle: ThreadHandle | undefined;
  #turn: TurnRunQueue | undefined;
  #closed = false;
  /** When the running turn started (for its `turn/completed` object). */
  #startedAtMs = 0;
  /** How the running turn ended, once core said so (its result settles when core let go of it). */
  #ending: { readonly status: TurnStatus; readonly error: TurnObject['error'] } | undefined;

  constructor(
    private readonly nowMs: () => number,
    private readonly onOtherEvent: ((event: TurnEvent) => void) | undefined,
    private readonly forget: (thread: HostThreadImpl) => void,
  ) {}

  attach(handle: ThreadHandle): this {
    this.#handle = handle;
    return this;
  }

  get #core(): ThreadHandle {
    if (this.#handle === undefined) throw new HostError('Closed', 'the thread is not open');
    return this.#handle;
  }

  get id(): string {
    return this.#core.threadId;
  }

  get path(): string | undefined {
    return this.#core.path;
  }

  get activeTurnId(): string | undefined {
    return this.#turn?.turnId;
  }

  get tokenUsage(): TokenUsageSnapshot {
    return this.#core.tokenReport;
  }

  run(input: string | readonly UserInput[], options: RunOptions = {}): TurnRun {
    if (this.#closed) throw new HostError('Closed', `thread ${this.id} was closed`);
    if (this.#turn !== undefined) throw new HostError('TurnRunning', `turn ${this.#turn.turnId} is still running on thread ${this.id}; wait for its result, steer it or interrupt it`);
    const handle = this.#core;
    const content = asInput(input);
    const turn = new TurnRunQueue(newTurnId(), () => handle.interruptIfRunning());
    this.#turn = turn;
    const startedAtMs = this.nowMs();
    this.#startedAtMs = startedAtMs;
    turn.push({ method: 'turn/started', params: { threadId: this.id, turn: this.#turnObject(turn.turnId, 'inProgress', null, startedAtMs, null) } });
    const userMessage = { id: randomUUID(), clientId: null };
    // As the app-server shows it: the user's message once its hooks let it through.
    const showMessage = () => {
      const at = this.nowMs();
      const item = userMessageItem(userMessage.id, null, content, at, null) as ThreadItem;
      turn.push({ method: 'item/started', params: { threadId: this.id, turnId: turn.turnId, item, startedAtMs: at } });
      turn.push({ method: 'item/completed', params: { threadId: this.id, turnId: turn.turnId, item: { ...item, completedAtMs: at }, completedAtMs: at } });
    };
    const abort = () => turn.interrupt();
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.signal?.aborted === true) queueMicrotask(abort);
    handle
      .runTurn(content, { turnId: turn.turnId, userMessage, onPromptAccepted: showMessage, ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }) })
      .then(
        // Core announced the ending already; this covers a turn it refused before running it.
        (outcome) => this.#announceEnd(turn, outcome.status, outcome.status === 'completed' || outcome.error === undefined ? null : (turnErrorObject(outcome.error) as unknown as TurnErrorInfo)),
        (error: unknown) => this.#announceEnd(turn, 'failed', { message: error instanceof Error ? error.message : String(error), codexErrorInfo: null, additionalDetails: null }),
      )
      .finally(() => {
        options.signal?.removeEventListener('abort', abort);
        this.#settle(turn);
      });
    return turn;
  }

  async steer(input: string | readonly UserInput[]): Promise<void> {
    if (this.#turn === undefined) throw new HostError('NoTurnRunning', `no turn is running on thread ${this.id}`);
    await this.#core.steer(asInput(input));
  }

  interrupt(): void {
    if (this.#turn === undefined) throw new HostError('NoTurnRunning', `no turn is running on thread ${this.id}`);
    this.#turn.interrupt();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.forget(this);
    await this.#handle?.close();
    this.#turn?.abort(new HostError('Closed', `thread ${this.id} was closed while its turn ran`));
  }

  /** Core's event stream for this thread. */
  readonly onEvent = (event: CoreEvent): void => {
    const turn = this.#turn;
    if (turn === undefined) {
      if (this.onOtherEvent === undefined) return;
      const turnId = 'turnId' in event && typeof event.turnId === 'string' ? event.turnId : '';
      for (const notification of turnNotifications(this.id, turnId, event, this.nowMs).events) this.onOtherEvent(notification);
      return;
    }
    // An interrupt asked for before core began the turn (right after `run`, or an aborted signal) takes effect now.
    if (event.type === 'turnStarted' && turn.interruptRequested) this.#core.interruptIfRunning();
    const { events, ending } = turnNotifications(this.id, turn.turnId, event, this.nowMs);
    for (const notification of events) turn.push(notification);
    if (ending !== undefined) this.#announceEnd(turn, ending.status, ending.error);
  };

  /** Tells the turn's reader it ended (once): `turn/completed`, as the app-server sends it. */
  #announceEnd(turn: TurnRunQueue, status: TurnStatus, error: TurnObject['error']): void {
    if (this.#turn !== turn || this.#ending !== undefined) return;
    this.#ending = { status, error };
    // As the app-server's: the final answer is the turn's summary; an interrupted turn carries none.
    const answer = status === 'interrupted' ? undefined : turn.lastAgentMessage;
    const result = this.#turnObject(turn.turnId, status, error, this.#startedAtMs, this.nowMs(), answer === undefined ? [] : [answer]);
    turn.push({ method: 'turn/completed', params: { threadId: this.id, turn: result } });
  }

  /**
   * Settles the turn's result once core let go of it, not at its ending event: a caller that awaits
   * `result` and runs the next turn at once must find the thread free.
   */
  #settle(turn: TurnRunQueue): void {
    if (this.#turn !== turn) return;
    const ending = this.#ending ?? { status: 'failed', error: { message: 'the turn ended without an outcome', codexErrorInfo: null, additionalDetails: null } };
    this.#turn = undefined;
    this.#ending = undefined;
    turn.finish(ending.status, ending.error, this.#core.tokenReport);
  }

  #turnObject(id: string, status: TurnObject['status'], error: TurnObject['error'], startedAtMs: number, completedAtMs: number | null, items: readonly ThreadItem[] = []): TurnObject {
    return {
      id,
      rootTurnId: id,
      items,
      itemsView: items.length === 0 ? 'notLoaded' : 'summary',
      status,
      error,
      startedAt: Math.floor(startedAtMs / 1000),
      completedAt: completedAtMs === null ? null : Math.floor(completedAtMs / 1000),
      durationMs: completedAtMs === null ? null : Math.round(completedAtMs - startedAtMs),
    };
  }
}
