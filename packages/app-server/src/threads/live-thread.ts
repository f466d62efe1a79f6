// One loaded thread as app-server clients see it: core's events — its turn items among them — become
// v2 notifications for the thread's subscribers (in Codex's order), its status is tracked and
// announced; its questions (ThreadQuestions) become server requests to its subscribers. What it needs
// from its server is ThreadHost (thread-host.ts).
export type { ThreadHost, TurnPresentation } from './thread-host.js';
import type { Config } from '@skein/config';
import { eventNotification, threadItem, turnErrorObject, UNKNOWN_RATE_LIMITS, userMessageItem } from '@skein/core';
import type { CoreEvent, SelectedEnvironment, ThreadHandle, TurnItem, UserMessageRecord, WireObject } from '@skein/core';
import type { UserInput } from '@skein/protocol';
import type { ThreadHost, TurnPresentation } from './thread-host.js';
import { ThreadQuestions } from './thread-questions.js';
import { ThreadStatus } from './thread-status.js';
import { textOf, turnObject, type ActiveTurn, type StartTurnOptions } from './live-turn.js';
import { ThreadObservers, type ThreadObserver } from './thread-observers.js';
import { LiveThreadSettings } from './live-thread-settings.js';

/** Identity and bookkeeping of a thread beyond its session. */
export interface LiveThreadFacts {
  readonly createdAtMs: number;
  readonly ephemeral: boolean;
  readonly forkedFromId: string | null;
  readonly originator: string;
  readonly source: unknown;
  readonly threadSource: string | null;
  name: string | null;
  preview: string;
}

/** A thread loaded in the app-server. Create it, pass `onEvent` and `questions` (as `ClientRequests`) to core, then `attach`. */
export class LiveThread {
  #handle: ThreadHandle | undefined;
  readonly #settings: LiveThreadSettings;
  #turn: ActiveTurn | undefined;
  #running: Promise<void> | undefined;
  /** A turn's end waiting for its read state from the store (see #endTurn). */
  #ending: Promise<void> | undefined;
  /** A model response reported usage; its thread total comes next, and the rate limits after it. */
  #responseUsage = false;
  readonly #status: ThreadStatus;
  readonly #observers = new ThreadObservers();
  #updatedAtMs: number;

  constructor(
    private readonly presetId: string,
    config: Config,
    readonly facts: LiveThreadFacts,
    private readonly host: ThreadHost,
  ) {
    this.#settings = new LiveThreadSettings(config, () => this.handle);
    this.#status = new ThreadStatus(() => this.#turn !== undefined, (status) => this.#emit('thread/status/changed', { threadId: this.id, status }));
    this.#updatedAtMs = facts.createdAtMs;
    this.questions = new ThreadQuestions({
      id: () => this.id,
      host,
      setFlag: (flag, on) => this.#status.setFlag(flag, on),
      openRequests: () => this.#turn?.openRequests,
      emit: (method, params) => this.#emit(method, params),
    });
  }

  /** Approvals and user input, asked of the thread's subscribers; core gets this as its `ClientRequests`. */
  readonly questions: ThreadQuestions;

  /** The thread's id (known once core opened it). */
  get id(): string {
    return this.#handle?.threadId ?? this.presetId;
  }

  /** Binds the session core opened for this thread. */
  attach(handle: ThreadHandle): void {
    this.#handle = handle;
  }

  /** Whether core's thread is bound yet. */
  get attached(): boolean {
    return this.#handle !== undefined;
  }

  get handle(): ThreadHandle {
    if (this.#handle === undefined) throw new Error(`thread ${this.id} is not open yet`);
    return this.#handle;
  }

  get config(): Config {
    return this.#settings.current;
  }

  get updatedAtMs(): number {
    return this.#updatedAtMs;
  }

  /** The running turn's id, if any. */
  get activeTurnId(): string | undefined {
    return this.#turn?.id;
  }

  /** `{type: idle}` or `{type: active, activeFlags}`. */
  status(): WireObject {
    return this.#status.current();
  }

  /** Settings for this and later turns (a client's turn overrides). */
  reconfigure(config: Config): void {
    this.#settings.reconfigure(config);
  }

  /** Settings the next turn runs with: those a client changed while a turn ran, else the current ones. */
  get nextConfig(): Config {
    return this.#settings.next;
  }

  /**
   * Settings (and, when given, environments) for later turns, never the running one: applied now
   * when the thread is idle, else once its turn ends.
   */
  configureNextTurns(config: Config, environments?: readonly SelectedEnvironment[]): void {
    this.#settings.configureNextTurns(config, environments, this.#turn !== undefined);
  }

  /**
   * Runs settings changes one after another in arrival order, so a later change builds on an
   * earlier one and a turn starts with every change before it.
   */
  serializeSettings<T>(change: () => Promise<T>): Promise<T> {
    return this.#settings.serialize(change);
  }

  /** Codex's deprecated personality, saved and reported (it selects no style, in Codex either). */
  personality: string | null = null;
  /** Plugin ids a client disabled for the thread (`turn/start.disabledPluginIds`): their skills stay out of its turns. */
  disabledPluginIds: readonly string[] = [];
  /** The service tier a client chose for the thread's turns (see service-tier.ts); null until one does. */
  serviceTier: string | null = null;
  /** The permission profile a client selected by id (`thread/settings/update {permissions}`), if any. */
  permissionProfile: string | null = null;
  /**
   * Whether a client named the thread's environments (thread/start, turn/start or a settings
   * update): their cwds are then sticky, and a bare `cwd` beside no `environments` does not move
   * them (the seed's rule; Codex 0.171.0 still moves the primary's).
   */
  environmentsNamed = false;

  /**
   * Starts a turn in the background and returns its wire object (`inProgress`). The caller answers
   * the client first; the turn's notifications follow.
   */
  startTurn(input: readonly UserInput[], options: StartTurnOptions): WireObject {
    const turn = this.#beginTurn(options.turnId, true, options.presentation);
    const shown = options.presentation?.shownInput ?? input;
    // Let the response go out before the turn's first notification.
    this.#running = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      for (const item of options.presentation?.openingItems ?? []) this.#announceItem(turn, item);
      this.#status.announceIfChanged();
      this.#emit('turn/started', { threadId: this.id, turn: turnObject(turn, 'inProgress', null, null) });
      // The message is recorded under the id clients see, so a resumed thread shows the same item. It
      // shows once the prompt is past its hooks (a UserPromptSubmit hook may keep it from the model).
      const userMessage = { id: this.host.newItemId(), clientId: options.clientUserMessageId ?? null };
      let shownMessage = false;
      const showMessage = () => {
        shownMessage = true;
        // The thread's preview is its first prompt a hook let through.
        if (this.facts.preview === '') this.facts.preview = textOf(shown);
        this.#userMessage(turn, shown, userMessage);
      };
      try {
        await this.handle.runTurn(input, {
          turnId: turn.id,
          userMessage,
          onPromptAccepted: showMessage,
          ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
          ...(options.serviceTier === undefined ? {} : { serviceTier: options.serviceTier }),
          ...(options.clientMetadata == null ? {} : { clientMetadata: options.clientMetadata }),
          ...(options.turnTrigger === undefined ? {} : { turnTrigger: options.turnTrigger }),
        });
      } catch (error) {
        // The session refused or broke before the turn could run: end it as failed for the client.
        if (!shownMessage) showMessage();
        this.#endTurn(turn, 'failed', { message: (error as Error).message, codexErrorInfo: null, additionalDetails: null });
      }
    });
    return turnObject(turn, 'inProgress', null, null, { startedAt: null });
  }

  /** Adds input to the running turn. */
  async steer(expectedTurnId: string, input: readonly UserInput[], clientUserMessageId: string | null = null): Promise<string> {
    const turn = this.#turn;
    if (turn === undefined || turn.id !== expectedTurnId) throw new Error(turn === undefined ? 'no turn is running' : `the running turn is ${turn.id}, not ${expectedTurnId}`);
    await this.handle.steer(input);
    this.#userMessage(turn, input, { id: this.host.newItemId(), clientId: clientUserMessageId });
    return turn.id;
  }

  /** Interrupts the running turn; its `turn/completed {interrupted}` follows. */
  interrupt(turnId: string): void {
    const turn = this.#turn;
    if (turn === undefined || turn.id !== turnId) throw new Error(turn === undefined ? 'no turn is running' : `the running turn is ${turn.id}, not ${turnId}`);
    this.handle.interrupt();
  }

  /** Waits for a background turn to finish (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#running;
    await this.#ending;
  }

  /** Core's event stream for this thread. */
  readonly onEvent = (event: CoreEvent): void => {
    this.#updatedAtMs = this.host.now();
    const notification = eventNotification(this.id, event);
    if (notification !== undefined) {
      const { method, params } = notification;
      if (notification.afterAnswer) setImmediate(() => this.#emit(method, params));
      else this.#emit(method, params);
      return;
    }
    switch (event.type) {
      case 'turnStarted':
        // A user shell command runs as a turn of its own, which no client request opened.
        if (this.#turn?.id !== event.turnId) {
          const turn = this.#beginTurn(event.turnId, false);
          this.#status.announceIfChanged();
          this.#emit('turn/started', { threadId: this.id, turn: turnObject(turn, 'inProgress', null, null) });
        }
        return;
      case 'turnItem':
        return this.#turnItem(event.phase, event.turnId, event.item);
      case 'turnItemOutputDelta':
        // Between turns a command its turn left running still prints, as Codex sends it (see #turnItem).
        if (this.#turn !== undefined && this.#turn.id !== event.turnId) return;
        return this.#emit('item/commandExecution/outputDelta', { threadId: this.id, turnId: event.turnId, itemId: event.itemId, delta: event.delta });
      case 'agentMessageDelta':
        if (this.#turn?.presentation !== undefined && this.#turn.id === event.turnId) return;
        return this.#emit('item/agentMessage/delta', { threadId: this.id, turnId: event.turnId, itemId: event.itemId, delta: event.delta });
      case 'threadTokenUsage':
        this.#emit('thread/tokenUsage/updated', {
          threadId: this.id,
          turnId: event.turnId,
          tokenUsage: { total: event.total, last: event.last, modelContextWindow: event.modelContextWindow },
        });
        // After a model response (not a compaction's usage), Codex reports the account's rate limits too.
        if (this.#responseUsage) this.#emit('account/rateLimits/updated', { rateLimits: UNKNOWN_RATE_LIMITS });
        this.#responseUsage = false;
        return;
      case 'turnCompleted':
        return this.#finish(event.turnId, 'completed', null);
      case 'turnAborted':
        // A turn the spent budget stopped is interrupted as any other, and its error says why.
        return this.#finish(event.turnId, 'interrupted', event.error === undefined ? null : turnErrorObject(event.error));
      case 'turnFailed': {
        const error = turnErrorObject(event.error);
        this.#emit('error', { threadId: this.id, turnId: event.turnId, willRetry: false, error });
        return this.#finish(event.turnId, 'failed', error);
      }
      // thread/name/set announces a name itself; usage goes out as threadTokenUsage; items come
      // from core's item reducer (turnItem), not from the facts it reduces. A tool's progress has
      // no v2 notification outside MCP tool calls (mcpToolCallProgress).
      case 'itemStarted':
      case 'itemCompleted':
      case 'commandStarted':
      case 'commandOutputDelta':
      case 'commandCompleted':
      case 'patchApplied':
      case 'imageViewed':
      case 'compactionStarted':
      case 'compactionEnded':
      case 'tokenUsage':
        this.#responseUsage = true;
        return;
      case 'turnDiffUpdated': {
        const turn = this.#turn;
        if (turn === undefined || turn.id !== event.turnId) return;
        turn.lastDiff = event.diff;
        return this.#emit('turn/diff/updated', { threadId: this.id, turnId: event.turnId, diff: event.diff });
      }
      case 'toolProgress':
      case 'sessionConfigured':
      case 'threadNameUpdated':
      case 'threadRolledBack': // The revert's answer and thread/reverted tell the client (thread-revert.ts).
      case 'reasoningSummaryDelta': // This one and the next eight went out above (eventNotification).
      case 'streamRetrying':
      case 'warning':
      case 'safetyBuffering':
      case 'hookRun':
      case 'mcpToolCallProgress':
      case 'mcpServerStatus':
      case 'goalUpdated':
      case 'goalCleared':
        return;
    }
  };

  #beginTurn(turnId: string, userTurn: boolean, presentation?: TurnPresentation): ActiveTurn {
    const turn: ActiveTurn = { id: turnId, startedAtMs: this.host.now(), openRequests: [], lastAgentMessage: undefined, lastDiff: undefined, userTurn, presentation };
    this.#turn = turn;
    this.#status.clearFlags();
    return turn;
  }

  #userMessage(turn: ActiveTurn, input: readonly UserInput[], { id, clientId }: UserMessageRecord): void {
    const started = this.host.now();
    this.#emit('item/started', { threadId: this.id, turnId: turn.id, item: userMessageItem(id, clientId, input, started, null), startedAtMs: started });
    const completed = this.host.now();
    this.#emit('item/completed', { threadId: this.id, turnId: turn.id, item: userMessageItem(id, clientId, input, started, completed), completedAtMs: completed, contentTokenCount: null });
  }

  /** One of core's items started or completed: the v2 notification, and the status it implies. */
  #turnItem(phase: 'started' | 'completed', turnId: string, item: TurnItem): void {
    const turn = this.#turn;
    if (turn === undefined || turn.id !== turnId) {
      // A command its turn left running may end between turns (a client ended it from the background
      // terminals): clients see it end under that turn, as Codex sends it. Once the next turn has
      // begun, an item of an earlier one belongs to no turn a client shows.
      if (turn === undefined && phase === 'completed' && item.kind === 'commandExecution') {
        this.#emit('item/completed', { threadId: this.id, turnId, item: threadItem(item), completedAtMs: item.completedAtMs ?? this.host.now(), contentTokenCount: null });
      }
      return;
    }
    if (turn.presentation !== undefined && item.kind === 'agentMessage') {
      if (phase === 'completed') turn.heldAnswer = item.text;
      return;
    }
    const wire = threadItem(item);
    if (phase === 'started') {
      // The question's status goes out before the item it is about, as Codex sends them.
      if ('awaitingApproval' in item && item.awaitingApproval) this.#status.setFlag('waitingOnApproval', true);
      this.#emit('item/started', { threadId: this.id, turnId, item: wire, startedAtMs: item.startedAtMs });
      return;
    }
    if (item.kind === 'agentMessage') turn.lastAgentMessage = wire;
    this.#emit('item/completed', { threadId: this.id, turnId, item: wire, completedAtMs: item.completedAtMs ?? this.host.now(), contentTokenCount: null });
    if (item.kind === 'commandExecution' && item.status === 'declined') this.#status.setFlag('waitingOnApproval', false);
  }

  #finish(turnId: string, status: 'completed' | 'interrupted' | 'failed', error: WireObject | null): void {
    const turn = this.#turn;
    if (turn === undefined || turn.id !== turnId) return;
    this.#endTurn(turn, status, error);
  }

  #endTurn(turn: ActiveTurn, status: 'completed' | 'interrupted' | 'failed', error: WireObject | null): void {
    for (const item of turn.presentation?.closingItems(status === 'completed' ? turn.heldAnswer : undefined, () => this.host.newItemId()) ?? []) {
      const completed = this.#announceItem(turn, item);
      if (item['type'] === 'agentMessage') turn.lastAgentMessage = completed;
    }
    // A turn that never became the running one (refused by the session) still ends for its client.
    if (turn.lastDiff !== undefined) this.#emit('turn/diff/updated', { threadId: this.id, turnId: turn.id, diff: turn.lastDiff });
    // A user turn's result is unread now: Codex says so just before the thread goes idle (not
    // after a compaction run as a turn of its own, nor after an interrupted turn, as Codex).
    const publishes = this.#turn === turn && !this.facts.ephemeral && turn.userTurn && status !== 'interrupted';
    const published = publishes ? this.host.publishTurn?.(this.id, turn.id) : undefined;
    if (!(published instanceof Promise)) return this.#closeTurn(turn, status, error, published);
    // The store answers later (a database): the turn stays the running one until it has, so clients
    // still see the read state, the idle status and turn/completed in that order.
    this.#ending = published.then(
      (readState: unknown) => this.#closeTurn(turn, status, error, readState),
      () => this.#closeTurn(turn, status, error, undefined),
    );
  }

  #closeTurn(turn: ActiveTurn, status: 'completed' | 'interrupted' | 'failed', error: WireObject | null, readState: unknown): void {
    if (this.#turn === turn) {
      this.#turn = undefined;
      this.#status.clearFlags();
      if (readState !== undefined) this.#emit('thread/readState/changed', { threadId: this.id, readState });
      // Settings changed during the turn apply from the next one on.
      this.#settings.applyDeferred();
      this.#status.announceIfChanged();
    }
    const completedAtMs = this.host.now();
    // Codex sends the final answer as the turn's summary; an interrupted turn carries nothing.
    const items = status === 'interrupted' || turn.lastAgentMessage === undefined ? [] : [turn.lastAgentMessage];
    this.#emit('turn/completed', {
      threadId: this.id,
      turn: turnObject(turn, status, error, completedAtMs, { items, itemsView: items.length === 0 ? 'notLoaded' : 'summary' }),
    });
    for (const requestId of turn.openRequests) this.#emit('serverRequest/resolved', { threadId: this.id, requestId });
    if (this.#turn === undefined) this.host.turnEnded?.(this.id, status);
  }

  /** Sends an item the server made (not core's) as started, then completed, under `turn`; returns it completed. */
  #announceItem(turn: ActiveTurn, item: WireObject): WireObject {
    const startedAtMs = this.host.now();
    this.#emit('item/started', { threadId: this.id, turnId: turn.id, item: { ...item, startedAtMs, completedAtMs: null }, startedAtMs });
    const completedAtMs = this.host.now();
    const completed = { ...item, startedAtMs, completedAtMs };
    this.#emit('item/completed', { threadId: this.id, turnId: turn.id, item: completed, completedAtMs, contentTokenCount: null });
    return completed;
  }

  /** Calls `listener` with every notification the thread sends its clients, until the returned function is called. */
  observe(listener: ThreadObserver): () => void {
    return this.#observers.add(listener);
  }

  #emit(method: string, params: unknown): void {
    this.host.broadcast(this.id, method, params);
    this.#observers.notify(method, params, (message) => this.host.broadcast(this.id, 'warning', { threadId: this.id, message }));
  }
}
