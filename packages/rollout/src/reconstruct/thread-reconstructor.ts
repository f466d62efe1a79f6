// Replays rollout lines, oldest first, into what a resumed thread needs: the model-visible history
// at the end of the file (compactions and rollbacks applied), the turns that survive, the last turn
// context, the newest world-state snapshots, extensions' durable state, the token totals and the
// thread's metadata. One pass; only the history, the turn list, the newest snapshot of each
// world-state section and the extension-state changes of surviving turns are kept.
import { BUILT_IN_CONTEXT_FRAGMENTS, type ContextFragmentDefinition, type ResponseItem } from '@skein/protocol';
import { compactionWindow, type Compacted, type CompactionWindow } from '../lines/compacted.js';
import { isKnownEventMsg, type EventMsg } from '../lines/event-msg.js';
import type { ExtensionState } from '../lines/extension-state.js';
import { interAgentHistoryItem } from '../lines/inter-agent.js';
import { isKnownRolloutItem, type RolloutLine } from '../lines/rollout-line.js';
import type { SessionMeta } from '../lines/session-meta.js';
import { TokenCountInfo } from '../lines/token-count.js';
import type { TurnContext } from '../lines/turn-context.js';
import type { WorldState } from '../lines/world-state.js';
import { isUserTurnBoundary, type ContextFragmentOptions } from '../user-turn.js';

/** How a turn ended, as far as the file knows. */
export type TurnStatus = 'completed' | 'aborted' | 'incomplete';

/** One surviving turn of the thread. */
export interface TurnRecord {
  /** The turn's id; undefined only for turns of old files that recorded none. */
  readonly turnId: string | undefined;
  readonly status: TurnStatus;
  /** Whether the turn was opened by user input (a rollback counts these). */
  readonly userTurn: boolean;
  /** The `turn_context` the turn ran with, if it wrote one. */
  readonly turnContext: TurnContext | undefined;
  /** 1-based line numbers of the turn's first and last line. */
  readonly firstLine: number;
  readonly lastLine: number;
}

/** The newest snapshot of one world-state section. */
export interface WorldStateSection {
  readonly sectionId: string;
  readonly snapshot: unknown;
}

/** One key of an extension's durable thread store. */
export interface ExtensionStateEntry {
  readonly extensionId: string;
  readonly key: string;
  /** A JSON value, as recorded. */
  readonly value: unknown;
}

/** What `ThreadReconstructor.finish` returns. */
export interface ThreadReconstruction {
  /** The first `session_meta` line's payload; undefined when the file has none. */
  readonly meta: SessionMeta | undefined;
  /** The model-visible history at the end of the file, items exactly as recorded. */
  readonly history: readonly ResponseItem[];
  /** Surviving turns, oldest first (rolled-back turns removed). */
  readonly turns: readonly TurnRecord[];
  /** The newest surviving `turn_context`. */
  readonly lastTurnContext: TurnContext | undefined;
  /**
   * The resume baseline: `lastTurnContext`, unless a compaction after it replaced the history it
   * described (then undefined, and a resumed thread re-sends its full context).
   */
  readonly referenceTurnContext: TurnContext | undefined;
  /** The context window opened by the newest compaction, if any. */
  readonly window: CompactionWindow | undefined;
  /** How many compactions the thread went through. */
  readonly compactions: number;
  /**
   * True when the newest compaction has no replacement history (files from before Codex recorded
   * it): `history` is then the user messages and the summary only, and the caller must put its
   * initial context in front.
   */
  readonly needsInitialContext: boolean;
  /** The newest name given to the thread. */
  readonly threadName: string | undefined;
  /** The thread's goal as last recorded (a `thread_goal_updated` line), null when it was cleared; undefined when none was ever set. */
  readonly goal: Readonly<Record<string, unknown>> | null | undefined;
  /**
   * The newest snapshot of every world-state section, in the order the sections first appeared;
   * a `full` line starts over. Rollbacks and compactions do not undo snapshots.
   */
  readonly worldState: readonly WorldStateSection[];
  /**
   * Every extension's durable thread store: the `skein_extension_state` changes replayed in order,
   * keys in the order they were first set. A rollback undoes the changes recorded from the start of
   * the oldest rolled-back turn on (the store is as it was before that turn); compactions keep them.
   */
  readonly extensionState: readonly ExtensionStateEntry[];
  /**
   * The `info` of the newest `token_count` event that has a valid one: the thread's token totals.
   * Events whose `info` is null or malformed are passed over (the previous total stands).
   */
  readonly tokenCount: TokenCountInfo | undefined;
  /** The highest `ordinal` seen (the next line's ordinal is one more). */
  readonly lastOrdinal: number | undefined;
  /** The newest line's timestamp. */
  readonly lastTimestamp: string | undefined;
  /** Lines replayed. */
  readonly lineCount: number;
}

interface MutableTurn {
  turnId: string | undefined;
  status: TurnStatus;
  userTurn: boolean;
  turnContext: TurnContext | undefined;
  firstLine: number;
  lastLine: number;
}

/**
 * Feeds on lines in file order (`push`), then `finish()` gives the reconstruction. Lines of unknown
 * types and events replay does not need are passed over (but were validated by the reader).
 */
export class ThreadReconstructor {
  private meta: SessionMeta | undefined;
  private history: ResponseItem[] = [];
  private readonly turns: MutableTurn[] = [];
  private current: MutableTurn | undefined;
  private lastTurnContext: TurnContext | undefined;
  private baselineCleared = false;
  private window: CompactionWindow | undefined;
  private compactions = 0;
  private needsInitialContext = false;
  private threadName: string | undefined;
  private goal: Readonly<Record<string, unknown>> | null | undefined;
  private readonly worldState = new Map<string, unknown>();
  /** Extension-state changes with the number of turns opened when each was recorded (what a rollback cuts by). */
  private extensionChanges: { readonly change: ExtensionState; readonly turnsOpened: number }[] = [];
  private tokenCount: TokenCountInfo | undefined;
  private lastOrdinal: number | undefined;
  private lastTimestamp: string | undefined;
  private lineCount = 0;
  private readonly contextFragments: readonly ContextFragmentDefinition[];

  constructor(options: ContextFragmentOptions = {}) {
    this.contextFragments = options.contextFragments ?? BUILT_IN_CONTEXT_FRAGMENTS;
  }

  /** Replays one line; `lineNumber` is its 1-based position, for the turn list. */
  push(line: RolloutLine, lineNumber: number): void {
    this.lineCount += 1;
    this.lastTimestamp = line.timestamp;
    if (line.ordinal !== undefined) this.lastOrdinal = Math.max(this.lastOrdinal ?? 0, line.ordinal);
    if (this.current !== undefined) this.current.lastLine = lineNumber;
    // Lines of types this version does not model carry nothing replay needs.
    if (!isKnownRolloutItem(line)) return;
    switch (line.type) {
      case 'session_meta':
        this.meta ??= line.payload;
        return;
      case 'response_item': {
        const item = line.payload;
        // What a code-mode model was offered goes with each request, never from history.
        if (item.type === 'additional_tools') return;
        this.history.push(item);
        if (isUserTurnBoundary(item, this.contextFragments)) this.markUserTurn(lineNumber);
        return;
      }
      case 'inter_agent_communication':
        this.history.push(interAgentHistoryItem(line.payload));
        this.markUserTurn(lineNumber);
        return;
      case 'inter_agent_communication_metadata':
        this.markUserTurn(lineNumber);
        return;
      case 'turn_context':
        this.onTurnContext(line.payload, lineNumber);
        return;
      case 'compacted':
        this.onCompacted(line.payload);
        return;
      case 'event_msg':
        this.onEvent(line.payload, lineNumber);
        return;
      case 'world_state':
        this.onWorldState(line.payload);
        return;
      case 'token_usage_record':
      case 'realtime_item': // Beside the thread, not in it: thread/realtime/list reads them.
        return;
      case 'skein_extension_state':
        this.extensionChanges.push({ change: line.payload, turnsOpened: this.turns.length });
        return;
      default: {
        const unhandled: never = line;
        return unhandled;
      }
    }
  }

  /** The reconstruction of everything pushed so far. */
  finish(): ThreadReconstruction {
    const turns = this.turns.map((turn): TurnRecord => ({ ...turn }));
    return {
      meta: this.meta,
      history: this.history.slice(),
      turns,
      lastTurnContext: this.lastTurnContext,
      referenceTurnContext: this.baselineCleared ? undefined : this.lastTurnContext,
      window: this.window,
      compactions: this.compactions,
      needsInitialContext: this.needsInitialContext,
      threadName: this.threadName,
      goal: this.goal,
      worldState: [...this.worldState].map(([sectionId, snapshot]): WorldStateSection => ({ sectionId, snapshot })),
      extensionState: replayExtensionState(this.extensionChanges),
      tokenCount: this.tokenCount,
      lastOrdinal: this.lastOrdinal,
      lastTimestamp: this.lastTimestamp,
      lineCount: this.lineCount,
    };
  }

  private onEvent(event: EventMsg, lineNumber: number): void {
    if (!isKnownEventMsg(event)) {
      if (event.type === 'token_count') this.onTokenCount(event['info']);
      return;
    }
    switch (event.type) {
      case 'task_started':
        this.sawLifecycle = true;
        this.openTurn(event.turn_id, lineNumber);
        return;
      case 'task_complete':
        this.closeTurn(event.turn_id, 'completed', lineNumber);
        return;
      case 'turn_aborted':
        this.closeTurn(event.turn_id ?? undefined, 'aborted', lineNumber);
        return;
      case 'user_message':
        this.markUserTurn(lineNumber);
        return;
      case 'thread_rolled_back':
        this.rollBack(event.num_turns);
        return;
      case 'thread_name_updated':
        this.threadName = event.thread_name ?? undefined;
        return;
      case 'thread_goal_updated':
        this.goal = event.goal;
        return;
      case 'agent_message':
      case 'item_completed':
      case 'exec_command_end':
        return;
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  }

  private onWorldState(state: WorldState): void {
    if (state.full === true) this.worldState.clear();
    for (const [sectionId, snapshot] of Object.entries(state.state ?? {})) this.worldState.set(sectionId, snapshot);
  }

  // `token_count` has no line-level schema (its `info` is often null), so its info is checked here.
  private onTokenCount(info: unknown): void {
    const parsed = TokenCountInfo.safeParse(info);
    if (parsed.success) this.tokenCount = parsed.data;
  }

  private onTurnContext(context: TurnContext, lineNumber: number): void {
    const turnId = context.turn_id ?? undefined;
    const current = this.current;
    // A context with a turn id before any turn (recorded with items a client injected into a fresh
    // thread) is a baseline for the first turn, not a turn of its own; files too old to have
    // lifecycle events wrote no turn ids.
    if (!this.sawLifecycle && current === undefined && turnId !== undefined) {
      this.sawLifecycle = true;
      this.lastTurnContext = context;
      this.baselineCleared = false;
      return;
    }
    const belongsToCurrent = this.sawLifecycle
      ? current !== undefined && (turnId === undefined || current.turnId === undefined || current.turnId === turnId)
      : // Old files have no lifecycle events: a turn context opens its turn, unless the user's
        // message that opened it came just before.
        current !== undefined && current.turnContext === undefined;
    if (!belongsToCurrent) this.openTurn(turnId, lineNumber);
    const turn = this.current as MutableTurn;
    turn.turnId ??= turnId;
    turn.turnContext = context;
    // Old files wrote a turn context only for user turns.
    if (!this.sawLifecycle) turn.userTurn = true;
    this.lastTurnContext = context;
    this.baselineCleared = false;
  }

  private sawLifecycle = false;

  private openTurn(turnId: string | undefined, lineNumber: number): void {
    const turn: MutableTurn = { turnId, status: 'incomplete', userTurn: false, turnContext: undefined, firstLine: lineNumber, lastLine: lineNumber };
    this.turns.push(turn);
    this.current = turn;
  }

  private closeTurn(turnId: string | undefined, status: TurnStatus, lineNumber: number): void {
    const turn = this.findOpenTurn(turnId);
    if (turn === undefined) return;
    turn.status = status;
    turn.lastLine = lineNumber;
    if (turn === this.current) this.current = undefined;
  }

  private findOpenTurn(turnId: string | undefined): MutableTurn | undefined {
    if (turnId === undefined) return this.current;
    for (let index = this.turns.length - 1; index >= 0; index -= 1) {
      const turn = this.turns[index] as MutableTurn;
      if (turn.turnId === turnId) return turn;
    }
    return undefined;
  }

  private markUserTurn(lineNumber: number): void {
    if (this.current === undefined) {
      // Where turns open with lifecycle events, a message before any turn (an injected one) has none.
      if (this.sawLifecycle) return;
      this.openTurn(undefined, lineNumber);
    }
    (this.current as MutableTurn).userTurn = true;
  }

  private onCompacted(compacted: Compacted): void {
    this.compactions += 1;
    this.window = compactionWindow(compacted);
    this.baselineCleared = true;
    if (compacted.replacement_history) {
      this.history = compacted.replacement_history.slice();
      this.needsInitialContext = false;
      return;
    }
    // Before replacement histories were recorded, a compaction kept the user's messages and the
    // summary; the context in front of them is rebuilt by whoever resumes the thread.
    const userMessages = this.history.filter((item) => isUserTurnBoundary(item, this.contextFragments) && item.type === 'message');
    this.history = [...userMessages, { type: 'message', role: 'user', content: [{ type: 'input_text', text: compacted.message }] }];
    this.needsInitialContext = true;
  }

  /** Drops the newest `count` user turns: from the history, and from the turn list. */
  private rollBack(count: number): void {
    if (count <= 0) return;
    this.history = dropLastUserTurns(this.history, count, this.contextFragments);
    let remaining = count;
    let cut = this.turns.length;
    while (cut > 0 && remaining > 0) {
      cut -= 1;
      if ((this.turns[cut] as MutableTurn).userTurn) remaining -= 1;
    }
    if (remaining > 0) cut = 0;
    this.turns.splice(cut);
    // Changes recorded once a dropped turn had opened go with it.
    this.extensionChanges = this.extensionChanges.filter((entry) => entry.turnsOpened <= cut);
    this.current = undefined;
    this.lastTurnContext = undefined;
    for (let index = this.turns.length - 1; index >= 0; index -= 1) {
      const context = (this.turns[index] as MutableTurn).turnContext;
      if (context !== undefined) {
        this.lastTurnContext = context;
        break;
      }
    }
  }
}

/** The stores the changes leave, in the order keys were first set. */
function replayExtensionState(changes: readonly { readonly change: ExtensionState }[]): ExtensionStateEntry[] {
  const stores = new Map<string, Map<string, unknown>>();
  for (const { change } of changes) {
    let store = stores.get(change.extension_id);
    if (store === undefined) stores.set(change.extension_id, (store = new Map<string, unknown>()));
    if ('deleted' in change) store.delete(change.key);
    else store.set(change.key, change.value);
  }
  return [...stores].flatMap(([extensionId, store]) => [...store].map(([key, value]): ExtensionStateEntry => ({ extensionId, key, value })));
}

/**
 * `history` without its newest `count` user turns: everything from the `count`-th newest user-turn
 * boundary on is dropped. Dropping more turns than there are keeps what precedes the first one
 * (the initial context).
 */
export function dropLastUserTurns(history: readonly ResponseItem[], count: number, contextFragments: readonly ContextFragmentDefinition[] = BUILT_IN_CONTEXT_FRAGMENTS): ResponseItem[] {
  if (count <= 0) return history.slice();
  let remaining = count;
  let cut = history.length;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    if (isUserTurnBoundary(history[index] as ResponseItem, contextFragments)) {
      cut = index;
      remaining -= 1;
      if (remaining === 0) break;
    }
  }
  return history.slice(0, cut);
}
