// One realtime conversation beside a thread: the socket to the realtime endpoint, what the client
// appends to it, what the endpoint streams back (as `thread/realtime/*` notifications and recorded
// items), and the handoffs — a `background_agent` call becomes a turn on the thread (or steers the
// running one), and the agent's messages go back to the conversation as `[BACKEND]` items.
import type { RealtimeItemRecord } from '@skein/core';
import { audioAppend, functionCallOutput, HANDOFF_TOOL, messageItem, responseCreate, sessionUpdate, SILENCE_TOOL, type RealtimeClientEvent, type RealtimeSessionSetup } from './realtime-client-events.js';
import { recordOf, wireItem, type RealtimeItem } from './realtime-items.js';
import { delegatedInput, parseServerFrame, type RealtimeServerEvent } from './realtime-server-events.js';
import type { RealtimeConnector, RealtimeSocket } from './realtime-socket.js';
import { RealtimeTranscript, type OpenSegment, type SegmentChange, type TranscriptEntry } from './realtime-transcript.js';

/** What a conversation needs of its thread. */
export interface RealtimeThreadPort {
  readonly threadId: string;
  /** The running turn, if any. */
  activeTurnId(): string | undefined;
  /** Starts a turn (turn_trigger `realtime`) with `text` as the user's input; returns its id. */
  startTurn(text: string): string;
  /** Adds `text` to the running turn `turnId`; rejects when it is no longer running. */
  steer(turnId: string, text: string): Promise<void>;
  /** Calls `listener` with each notification the thread sends; returns the way to stop. */
  observe(listener: (method: string, params: unknown) => void): () => void;
  /** Records an item (a `realtime_item` line). */
  record(item: RealtimeItemRecord): void;
  /** Sends a notification to the thread's clients. */
  notify(method: string, params: Readonly<Record<string, unknown>>): void;
}

/** How the agent's answers go back to the conversation (`thread/realtime/start`'s routing params). */
export interface HandoffRouting {
  /** The client routes answers itself (with appendText/appendSpeech); Skein sends nothing back. */
  readonly clientManaged: boolean;
  /** Answers go as developer items (with `itemPrefix` before them) rather than as user items. */
  readonly asItems: boolean;
  readonly itemPrefix: string | null;
}

export interface RealtimeConversationOptions {
  readonly realtimeSessionId: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly setup: RealtimeSessionSetup;
  readonly routing: HandoffRouting;
  readonly connect: RealtimeConnector;
  readonly newId: () => string;
  readonly now: () => number;
  /** Called once when the conversation has ended, however it ended. */
  readonly onEnded: () => void;
}

/** Why a conversation ended, as `thread/realtime/closed` says it. */
type CloseReason = 'requested' | 'error' | 'ended';

// The function outputs the realtime model reads; Skein's own words.
const HANDOFF_FINISHED = 'The agent finished; its answer is in the [BACKEND] messages above.';
const HANDOFF_STOPPED = 'The agent stopped before it finished; tell the user, using any [BACKEND] messages above.';
const HANDOFF_STEERED = 'Passed to the agent as guidance for the task it is already on.';
/** How often, and how far apart, a handoff is offered to a turn that could not take it. */
const MAX_DELIVERY_ATTEMPTS = 100;
const DELIVERY_RETRY_MS = 20;

export class RealtimeConversation {
  readonly #port: RealtimeThreadPort;
  readonly #options: RealtimeConversationOptions;
  readonly #transcript: RealtimeTranscript;
  /** Handoff calls waiting for their turn's end, by turn. */
  readonly #handoffs = new Map<string, string[]>();
  /** What was appended before the socket opened, sent once it does. */
  #queued: RealtimeClientEvent[] = [];
  #socket: RealtimeSocket | undefined;
  #ended = false;
  readonly #unobserve: () => void;

  private constructor(port: RealtimeThreadPort, options: RealtimeConversationOptions) {
    this.#port = port;
    this.#options = options;
    this.#transcript = new RealtimeTranscript(options.newId, options.now);
    this.#unobserve = port.observe((method, params) => this.#onThreadNotification(method, params));
  }

  /** Starts connecting; appends are queued until the socket is open. */
  static start(port: RealtimeThreadPort, options: RealtimeConversationOptions): RealtimeConversation {
    const conversation = new RealtimeConversation(port, options);
    void conversation.#connect();
    return conversation;
  }

  get realtimeSessionId(): string {
    return this.#options.realtimeSessionId;
  }

  appendAudio(data: string): void {
    this.#send(audioAppend(data));
  }

  /** Text for the conversation: the user's is marked `[USER]`; a developer's or assistant's goes as it is. */
  appendText(role: 'user' | 'developer' | 'assistant', text: string): void {
    this.#send(messageItem(role, role === 'user' ? `[USER] ${text}` : text));
  }

  /** Text for the realtime model to voice now, as the agent's. */
  appendSpeech(text: string): void {
    this.#send(messageItem('user', `[BACKEND] ${text}`));
    this.#send(responseCreate());
  }

  /** Ends the conversation at the client's request. */
  stop(): void {
    this.#end('ended', 'requested');
  }

  async #connect(): Promise<void> {
    const { url, headers, connect } = this.#options;
    let socket: RealtimeSocket;
    try {
      socket = await connect(url, headers, { onFrame: (text) => this.#onFrame(text), onClose: (error) => this.#onSocketClosed(error) });
    } catch (error) {
      if (this.#ended) return;
      this.#notify('thread/realtime/error', { message: `could not connect to the realtime endpoint ${url.origin}: ${(error as Error).message}` });
      this.#end(undefined, 'error');
      return;
    }
    if (this.#ended) {
      socket.close();
      return;
    }
    this.#socket = socket;
    socket.send(sessionUpdate(this.#options.setup));
    for (const event of this.#queued) socket.send(event);
    this.#queued = [];
    this.#item('realtimeSessionStarted', {}, `realtime-session-start:${this.realtimeSessionId}`);
    this.#notify('thread/realtime/started', { realtimeSessionId: this.realtimeSessionId, version: 'v2' });
  }

  #send(event: RealtimeClientEvent): void {
    if (this.#ended) return;
    if (this.#socket === undefined) this.#queued.push(event);
    else this.#socket.send(event);
  }

  #onFrame(text: string): void {
    if (this.#ended) return;
    const parsed = parseServerFrame(text);
    // A frame Skein cannot read is passed over, as Codex passes over event types it does not know.
    if (parsed.ok && parsed.event !== undefined) this.#onEvent(parsed.event);
  }

  #onEvent(event: RealtimeServerEvent): void {
    switch (event.kind) {
      case 'sessionUpdated':
        return;
      case 'audioOut':
        return this.#notify('thread/realtime/outputAudio/delta', {
          audio: { data: event.data, sampleRate: event.sampleRate, numChannels: event.numChannels, samplesPerChannel: event.samplesPerChannel ?? null, itemId: event.itemId ?? null },
        });
      case 'transcriptDelta':
        this.#announceSegment(this.#transcript.delta(event.role, event.delta), true);
        return;
      case 'transcriptDone':
        this.#announceSegment(this.#transcript.done(event.role, event.text), false);
        return this.#notify('thread/realtime/transcript/done', { role: event.role, text: event.text });
      case 'itemAdded':
        return this.#notify('thread/realtime/itemAdded', { item: event.item });
      case 'functionCall':
        if (event.name === HANDOFF_TOOL) return this.#handoff(event.callId, event.itemId, event.arguments);
        // Saying nothing is an answer too: the call is closed without asking for a response.
        if (event.name === SILENCE_TOOL) this.#send(functionCallOutput(event.callId, ''));
        return;
      case 'error':
        // The endpoint's error ends the session, as it ends Codex's.
        this.#notify('thread/realtime/error', { message: event.message });
        return this.#end('failed', 'error');
    }
  }

  /** Announces a segment opening, growing and closing; a delta also goes out role-wide (`transcript/delta`). */
  #announceSegment(change: SegmentChange, roleWide: boolean): void {
    if (change.opened !== undefined) this.#notify('thread/realtime/item/started', { item: segmentItem(this.realtimeSessionId, change.opened, '') });
    if (change.grew !== undefined) {
      this.#notify('thread/realtime/item/transcript/delta', { itemId: change.grew.segment.id, delta: change.grew.delta });
      if (roleWide) this.#notify('thread/realtime/transcript/delta', { role: change.grew.segment.role, delta: change.grew.delta });
    }
    if (change.closed !== undefined) this.#closeSegment(change.closed);
  }

  /** A segment closes: recorded as a `frame`, announced as the finished segment. */
  #closeSegment(segment: OpenSegment): void {
    this.#port.record(recordOf({ id: segment.id, realtimeSessionId: this.realtimeSessionId, observedAtMs: segment.observedAtMs, type: 'frame', fields: { channels: { voice_transcript: { role: segment.role, text: segment.text } } } }));
    this.#notify('thread/realtime/item/completed', { item: segmentItem(this.realtimeSessionId, segment, segment.text) });
  }

  #handoff(callId: string, itemId: string, args: string): void {
    const input = delegatedInput(args);
    const transcript = this.#transcript.takeForHandoff(input);
    this.#notify('thread/realtime/itemAdded', { item: { type: 'handoff_request', handoff_id: callId, item_id: itemId, input_transcript: input, active_transcript: transcript } });
    this.#deliver({ callId, itemId, input, text: delegationText(input, transcript) });
  }

  /** Starts a turn with the handoff, or steers the running one with it (the call is then answered at once). */
  #deliver(handoff: { readonly callId: string; readonly itemId: string; readonly input: string; readonly text: string }, attempt = 1): void {
    const accepted = (mode: 'start' | 'steer', turnId: string) =>
      this.#item('turnInputAccepted', { handoff_id: handoff.callId, input: handoff.input, input_item_id: handoff.itemId, mode, source_event_ids: [], turn_id: turnId });
    const running = this.#port.activeTurnId();
    if (running === undefined) {
      const turnId = this.#port.startTurn(handoff.text);
      this.#handoffs.set(turnId, [...(this.#handoffs.get(turnId) ?? []), handoff.callId]);
      accepted('start', turnId);
      return;
    }
    this.#port.steer(running, handoff.text).then(
      () => {
        accepted('steer', running);
        if (this.#options.routing.clientManaged) return;
        this.#send(functionCallOutput(handoff.callId, HANDOFF_STEERED));
        this.#send(responseCreate());
      },
      // The turn is between states (ending, or not yet running in the session): try again shortly,
      // never in a tight loop, and give up with an error rather than lose the request silently.
      (error: unknown) => {
        if (this.#ended) return;
        if (attempt >= MAX_DELIVERY_ATTEMPTS) {
          this.#notify('thread/realtime/error', { message: `the request could not be handed to the agent: ${(error as Error).message}` });
          return;
        }
        setTimeout(() => this.#deliver(handoff, attempt + 1), DELIVERY_RETRY_MS);
      },
    );
  }

  /** The thread's notifications: a handoff turn's agent messages go back, and its end closes its calls. */
  #onThreadNotification(method: string, params: unknown): void {
    const { routing } = this.#options;
    if (this.#ended || routing.clientManaged) return;
    const event = params as { readonly turnId?: unknown; readonly item?: { readonly type?: unknown; readonly text?: unknown }; readonly turn?: { readonly id?: unknown; readonly status?: unknown } };
    if (method === 'item/completed' && typeof event.turnId === 'string' && this.#handoffs.has(event.turnId) && event.item?.type === 'agentMessage') {
      const text = typeof event.item.text === 'string' ? event.item.text.trim() : '';
      if (text === '') return;
      if (routing.asItems) this.#send(messageItem('developer', routing.itemPrefix === null || routing.itemPrefix === '' ? `[BACKEND] ${text}` : `${routing.itemPrefix}\n\n[BACKEND] ${text}`));
      else this.#send(messageItem('user', `[BACKEND] ${text}`));
      return;
    }
    if (method === 'turn/completed' && typeof event.turn?.id === 'string') {
      const calls = this.#handoffs.get(event.turn.id);
      if (calls === undefined) return;
      this.#handoffs.delete(event.turn.id);
      const output = routing.asItems ? '' : event.turn.status === 'completed' ? HANDOFF_FINISHED : HANDOFF_STOPPED;
      for (const callId of calls) this.#send(functionCallOutput(callId, output));
      if (!routing.asItems) this.#send(responseCreate());
    }
  }

  #onSocketClosed(error: Error | undefined): void {
    if (this.#ended) return;
    if (error !== undefined) this.#notify('thread/realtime/error', { message: `the realtime connection was lost: ${error.message}` });
    this.#end(error === undefined ? 'ended' : 'failed', error === undefined ? 'ended' : 'error');
  }

  /**
   * Ends the conversation once: open segments close, the session's end is recorded (unless it never
   * started), the socket closes and clients hear `closed`. The thread stays as it is.
   */
  #end(outcome: 'ended' | 'failed' | undefined, reason: CloseReason): void {
    if (this.#ended) return;
    const started = this.#socket !== undefined;
    for (const segment of this.#transcript.closeAll()) this.#closeSegment(segment);
    if (started && outcome !== undefined) this.#item('realtimeSessionClosed', { outcome });
    this.#ended = true;
    this.#unobserve();
    this.#socket?.close();
    this.#notify('thread/realtime/closed', { reason });
    this.#options.onEnded();
  }

  /** Records an item and announces it as started and completed. */
  #item(type: string, fields: Readonly<Record<string, unknown>>, id: string = this.#options.newId()): void {
    const item: RealtimeItem = { id, realtimeSessionId: this.realtimeSessionId, observedAtMs: this.#options.now(), type, fields };
    this.#port.record(recordOf(item));
    this.#notify('thread/realtime/item/started', { item: wireItem(item) });
    this.#notify('thread/realtime/item/completed', { item: wireItem(item) });
  }

  #notify(method: string, params: Readonly<Record<string, unknown>>): void {
    this.#port.notify(method, { threadId: this.#port.threadId, ...params });
  }
}

/** A transcript segment as clients see it. */
function segmentItem(realtimeSessionId: string, segment: OpenSegment, text: string): Readonly<Record<string, unknown>> {
  return { id: segment.id, realtimeSessionId, observedAtMs: segment.observedAtMs, type: 'transcriptSegment', role: segment.role, text };
}

/** The turn input of a handoff: the request and what was said since the last one. */
export function delegationText(input: string, transcript: readonly TranscriptEntry[]): string {
  const said = transcript.map((entry) => `${entry.role}: ${entry.text}`).join('\n');
  return `<realtime_delegation>\n  <input>${input}</input>\n  <transcript_delta>${said}</transcript_delta>\n</realtime_delegation>`;
}
