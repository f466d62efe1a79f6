// Turns appended rollout items into the lines every writer stores, whatever it stores them in: each
// item checked (all or nothing), filtered and sanitized by the persistence policy, stamped with its
// time and ordinal, and noted for the index (the thread's title and latest model).
import type { ResponseItem } from '@skein/protocol';
import { rolloutTimestamp, type Clock } from '../clock.js';
import { compactedWriteProblem, type Compacted } from '../lines/compacted.js';
import type { EventMsg } from '../lines/event-msg.js';
import { rolloutItemProblem, serializeRolloutLine, type RolloutItem } from '../lines/rollout-line.js';
import type { TurnContext } from '../lines/turn-context.js';
import { isPersistedRolloutItem, sanitizeForPersistence, type EventPersistenceMode } from '../persistence-policy.js';
import { RolloutError } from '../rollout-error.js';
import { isUserTurnBoundary, userMessageText, type ContextFragmentOptions } from '../user-turn.js';

/** The lines one `append` makes. */
export interface EncodedLines {
  /** JSON lines without their newline, in order. */
  readonly lines: readonly string[];
  /** Whether one of them ends a turn (or is a header, a compaction, a rollback): where `turn` durability commits. */
  readonly boundary: boolean;
}

/** Options of `RolloutLineEncoder`. */
export interface LineEncoderOptions extends ContextFragmentOptions {
  readonly clock: Clock;
  readonly persistence: EventPersistenceMode;
  /** The ordinal of the first line encoded. */
  readonly nextOrdinal: number;
  /** Named in `InvalidItem` errors (a file path, or a thread id). */
  readonly where: string;
}

/** Encodes one thread's appended items into lines, keeping the ordinal, title and model as it goes. */
export class RolloutLineEncoder {
  #ordinal: number;
  #title: string | undefined;
  #model: string | undefined;

  constructor(private readonly options: LineEncoderOptions) {
    this.#ordinal = options.nextOrdinal;
  }

  /** The ordinal the next line gets. */
  get nextOrdinal(): number {
    return this.#ordinal;
  }

  /** The first user message encoded (the thread's title). */
  get firstUserMessage(): string | undefined {
    return this.#title;
  }

  /** The model of the last `turn_context` encoded. */
  get lastModel(): string | undefined {
    return this.#model;
  }

  /** Checks every item first (an invalid one throws `InvalidItem` and nothing is encoded), then encodes those the policy keeps. */
  encode(items: readonly RolloutItem[]): EncodedLines {
    for (const item of items) {
      const problem = rolloutItemProblem(item) ?? (item.type === 'compacted' ? compactedWriteProblem(item.payload as Compacted) : undefined);
      if (problem !== undefined) throw new RolloutError('InvalidItem', problem, this.options.where);
    }
    const lines: string[] = [];
    let boundary = false;
    for (const original of items) {
      if (!isPersistedRolloutItem(original, this.options.persistence)) continue;
      const item = sanitizeForPersistence(original, this.options.persistence);
      lines.push(serializeRolloutLine({ timestamp: rolloutTimestamp(this.options.clock.now()), ordinal: this.#ordinal }, item));
      this.#ordinal += 1;
      boundary ||= isDurabilityBoundary(item);
      this.#note(item);
    }
    return { lines, boundary };
  }

  #note(item: RolloutItem): void {
    if (item.type === 'turn_context') this.#model = (item.payload as TurnContext).model;
    if (this.#title !== undefined) return;
    if (item.type === 'response_item' && isUserTurnBoundary(item.payload as ResponseItem, this.options.contextFragments) && (item.payload as ResponseItem).type === 'message') {
      this.#title = userMessageText(item.payload as ResponseItem);
    } else if (item.type === 'event_msg' && (item.payload as EventMsg).type === 'user_message') {
      this.#title = (item.payload as { message: string }).message;
    }
  }
}

/** Lines after which the `turn` durability makes the thread durable. */
function isDurabilityBoundary(item: RolloutItem): boolean {
  switch (item.type) {
    case 'session_meta':
    case 'compacted':
      return true;
    case 'event_msg': {
      const type = (item.payload as EventMsg).type;
      return type === 'task_complete' || type === 'turn_aborted' || type === 'thread_rolled_back';
    }
    default:
      return false;
  }
}
