// One turn as the host API hands it out: an async iterable of its events (read as they come, or
// not at all) and a promise of its result. Events wait in a queue until read, so a caller that
// starts iterating late misses nothing; the queue holds one turn's events at most.
import type { ThreadItem } from '@skein/protocol';
import type { TokenUsageSnapshot, TurnEvent, TurnResult, TurnStatus, TurnErrorInfo } from './turn-event.js';

/** A running turn. Iterate it for its events; `result` settles when it ends. */
export interface TurnRun extends AsyncIterable<TurnEvent> {
  /** The turn's id, known before it starts. */
  readonly turnId: string;
  /** Settles with the turn's outcome (also when nobody iterates). Rejects only if the runtime broke. */
  readonly result: Promise<TurnResult>;
  /** Interrupts the turn; its `turn/completed {interrupted}` follows. Does nothing once it ended. */
  interrupt(): void;
}

/** The producer's side of a TurnRun: the thread pushes events and finishes it. */
export class TurnRunQueue implements TurnRun {
  readonly #events: TurnEvent[] = [];
  readonly #waiting: ((result: IteratorResult<TurnEvent>) => void)[] = [];
  readonly #items: ThreadItem[] = [];
  #ended = false;
  #interruptRequested = false;
  #lastAgentMessage: ThreadItem | undefined;
  readonly result: Promise<TurnResult>;
  #settle!: (result: TurnResult) => void;
  #fail!: (error: unknown) => void;

  constructor(
    readonly turnId: string,
    private readonly interrupter: () => void,
  ) {
    this.result = new Promise<TurnResult>((resolve, reject) => {
      this.#settle = resolve;
      this.#fail = reject;
    });
    // A caller that only iterates must not see an unhandled rejection.
    this.result.catch(() => undefined);
  }

  interrupt(): void {
    if (this.#ended) return;
    this.#interruptRequested = true;
    this.interrupter();
  }

  /** Whether `interrupt` was called: a turn core had not begun yet is stopped as soon as it begins. */
  get interruptRequested(): boolean {
    return this.#interruptRequested;
  }

  push(event: TurnEvent): void {
    if (this.#ended) return;
    if (event.method === 'item/completed') {
      this.#items.push(event.params.item);
      if (event.params.item.type === 'agentMessage') this.#lastAgentMessage = event.params.item;
    }
    const reader = this.#waiting.shift();
    if (reader !== undefined) reader({ value: event, done: false });
    else this.#events.push(event);
  }

  /** The turn's last completed agent message so far. */
  get lastAgentMessage(): ThreadItem | undefined {
    return this.#lastAgentMessage;
  }

  /** Ends the stream with the turn's outcome (after its `turn/completed` was pushed). */
  finish(status: TurnStatus, error: TurnErrorInfo | null, usage: TokenUsageSnapshot): void {
    if (this.#ended) return;
    this.#ended = true;
    // An interrupted turn gave no answer, whatever it said on the way (as Codex's turn summary).
    this.#settle({ turnId: this.turnId, status, finalResponse: status === 'interrupted' ? undefined : textOf(this.#lastAgentMessage), items: this.#items, error, usage });
    for (const reader of this.#waiting.splice(0)) reader({ value: undefined, done: true });
  }

  /** Ends the stream because the runtime failed underneath the turn. */
  abort(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#fail(error);
    for (const reader of this.#waiting.splice(0)) reader({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<TurnEvent> {
    return {
      next: () => {
        const event = this.#events.shift();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.#waiting.push(resolve));
      },
    };
  }
}

/** An agent message's text (the ThreadItem union also admits items it does not model). */
function textOf(item: ThreadItem | undefined): string | undefined {
  const text = (item as { readonly text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : undefined;
}
