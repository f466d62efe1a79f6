// The handoffs of one realtime conversation: a `background_agent` request starts a turn on the
// thread, or steers the one running (answered at once); the agent messages of those turns go back
// to the conversation as `[BACKEND]` items, and a started turn's end answers its call. Nothing is
// delivered or sent once the conversation has ended.
import { functionCallOutput, messageItem, responseCreate, type RealtimeClientEvent } from './realtime-client-events.js';
import type { HandoffRouting, RealtimeThreadPort } from './realtime-conversation.js';

/** A request the realtime model handed off. */
export interface Handoff {
  readonly callId: string;
  readonly itemId: string;
  /** The request, as the model passed it. */
  readonly input: string;
  /** The turn input: the request with the transcript since the last handoff. */
  readonly text: string;
}

/** What handoffs need of their conversation. */
export interface HandoffOutlet {
  send(event: RealtimeClientEvent): void;
  readonly ended: () => boolean;
  /** Records and announces that the thread took a handoff. */
  accepted(handoff: Handoff, mode: 'start' | 'steer', turnId: string): void;
  error(message: string): void;
}

// The function outputs the realtime model reads; Skein's own words.
const HANDOFF_FINISHED = 'The agent finished; its answer is in the [BACKEND] messages above.';
const HANDOFF_STOPPED = 'The agent stopped before it finished; tell the user, using any [BACKEND] messages above.';
const HANDOFF_STEERED = 'Passed to the agent as guidance for the task it is already on.';
const HANDOFF_FAILED = 'The request could not be handed to the agent; tell the user to try again.';
/** How often, and how far apart, a handoff is offered to a turn that could not take it. */
const MAX_DELIVERY_ATTEMPTS = 100;
const DELIVERY_RETRY_MS = 20;

export class RealtimeHandoffs {
  /** Calls waiting for their turn's end, by turn. */
  readonly #waiting = new Map<string, string[]>();
  /** Turns whose agent messages go back (started by a handoff, or steered by one). */
  readonly #relayed = new Set<string>();
  readonly #retries = new Set<NodeJS.Timeout>();

  constructor(
    private readonly port: RealtimeThreadPort,
    private readonly routing: HandoffRouting,
    private readonly outlet: HandoffOutlet,
  ) {}

  /** Starts a turn with the handoff, or steers the running one with it. */
  deliver(handoff: Handoff, attempt = 1): void {
    if (this.outlet.ended()) return;
    const running = this.port.activeTurnId();
    if (running === undefined) {
      const turnId = this.port.startTurn(handoff.text);
      if (!this.routing.clientManaged) {
        this.#relayed.add(turnId);
        this.#waiting.set(turnId, [...(this.#waiting.get(turnId) ?? []), handoff.callId]);
      }
      this.outlet.accepted(handoff, 'start', turnId);
      return;
    }
    this.port.steer(running, handoff.text).then(
      () => {
        if (this.outlet.ended()) return;
        this.outlet.accepted(handoff, 'steer', running);
        if (this.routing.clientManaged) return;
        this.#relayed.add(running);
        this.#answer(handoff.callId, HANDOFF_STEERED);
      },
      // The turn is between states (ending, or not yet running in the session): offered again
      // shortly, never in a tight loop; one that never lands is answered as failed, not left hanging.
      (error: unknown) => {
        if (this.outlet.ended()) return;
        if (attempt >= MAX_DELIVERY_ATTEMPTS) {
          this.outlet.error(`the request could not be handed to the agent: ${(error as Error).message}`);
          if (!this.routing.clientManaged) this.#answer(handoff.callId, HANDOFF_FAILED);
          return;
        }
        const retry = setTimeout(() => {
          this.#retries.delete(retry);
          this.deliver(handoff, attempt + 1);
        }, DELIVERY_RETRY_MS);
        this.#retries.add(retry);
      },
    );
  }

  /** The thread's notifications: relayed turns' agent messages go back, and a turn's end answers its calls. */
  onThreadNotification(method: string, params: unknown): void {
    if (this.outlet.ended() || this.routing.clientManaged) return;
    const event = params as { readonly turnId?: unknown; readonly item?: { readonly type?: unknown; readonly text?: unknown }; readonly turn?: { readonly id?: unknown; readonly status?: unknown } };
    if (method === 'item/completed' && typeof event.turnId === 'string' && this.#relayed.has(event.turnId) && event.item?.type === 'agentMessage') {
      const text = typeof event.item.text === 'string' ? event.item.text.trim() : '';
      if (text !== '') this.outlet.send(this.#answerItem(text));
      return;
    }
    if (method === 'turn/completed' && typeof event.turn?.id === 'string' && this.#relayed.delete(event.turn.id)) {
      const calls = this.#waiting.get(event.turn.id) ?? [];
      this.#waiting.delete(event.turn.id);
      const { asItems } = this.routing;
      for (const callId of calls) this.outlet.send(functionCallOutput(callId, asItems ? '' : event.turn.status === 'completed' ? HANDOFF_FINISHED : HANDOFF_STOPPED));
      if (!asItems || calls.length === 0) this.outlet.send(responseCreate());
    }
  }

  /** Stops pending retries (the conversation ended). */
  close(): void {
    for (const retry of this.#retries) clearTimeout(retry);
    this.#retries.clear();
  }

  #answerItem(text: string): RealtimeClientEvent {
    const { asItems, itemPrefix } = this.routing;
    if (!asItems) return messageItem('user', `[BACKEND] ${text}`);
    return messageItem('developer', itemPrefix === null || itemPrefix === '' ? `[BACKEND] ${text}` : `${itemPrefix}\n\n[BACKEND] ${text}`);
  }

  #answer(callId: string, output: string): void {
    this.outlet.send(functionCallOutput(callId, output));
    this.outlet.send(responseCreate());
  }
}
