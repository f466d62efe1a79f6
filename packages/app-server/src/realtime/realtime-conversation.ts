// One realtime conversation beside a thread: the socket to the realtime endpoint, what the client
// appends to it, what the endpoint streams back (as `thread/realtime/*` notifications and recorded
// items), and the handoffs — a `background_agent` call becomes a turn on the thread (or steers the
// running one), and the agent's messages go back to the conversation as `[BACKEND]` items.
import type { RealtimeItemRecord } from '@skein/core';
import { audioAppend, functionCallOutput, HANDOFF_TOOL, messageItem, responseCreate, sessionUpdate, SILENCE_TOOL, type RealtimeClientEvent, type RealtimeSessionSetup } from './realtime-client-events.js';
import { RealtimeHandoffs } from './realtime-handoffs.js';
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

/** What may wait for the socket to open; past it, appends are refused rather than held without bound. */
const MAX_QUEUED_EVENTS = 512;

/** An append the conversation cannot take now. */
export class RealtimeAppendError extends Error {
  override readonly name = 'RealtimeAppendError';
}

export class RealtimeConversation {
  readonly #port: RealtimeThreadPort;
  readonly #options: RealtimeConversationOptions;
  readonly #transcript: RealtimeTranscript;
  readonly #handoffs: RealtimeHandoffs;
  /** The function calls already answered or delivered (the endpoint may repeat an item). */
  readonly #calls = new Set<string>();
  /** What was appended before the socket opened, sent once it does. */
  #queued: RealtimeClientEvent[] = [];
  #socket: RealtimeSocket | undefined;
  #ended = false;
  readonly #unobserve: () => void;

  private constructor(port: RealtimeThreadPort, options: RealtimeConversationOptions) {
    this.#port = port;
    this.#options = options;
    this.#transcript = new RealtimeTranscript(options.newId, options.now);
    this.#handoffs = new RealtimeHandoffs(port, options.routing, {
      send: (event) => this.#send(event),
      ended: () => this.#ended,
      accepted: (handoff, mode, turnId) =>
        this.#item('turnInputAccepted', { handoff_id: handoff.callId, input: handoff.input, input_item_id: handoff.itemId, mode, source_event_ids: [], turn_id: turnId }),
      error: (message) => this.#notify('thread/realtime/error', { message }),
    });
    this.#unobserve = port.observe((method, params) => this.#handoffs.onThreadNotification(method, params));
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
    if (this.#socket !== undefined) return this.#socket.send(event);
    if (this.#queued.length >= MAX_QUEUED_EVENTS) throw new RealtimeAppendError(`the realtime endpoint is still connecting and ${MAX_QUEUED_EVENTS} appends already wait for it; try again once thread/realtime/started arrives`);
    this.#queued.push(event);
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
        return this.#onFunctionCall(event.name, event.callId, event.itemId, event.arguments);
      case 'error':
        // The endpoint's error ends the session, as it ends Codex 0.171.0's (probed).
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

  #onFunctionCall(name: string, callId: string, itemId: string, args: string): void {
    if (this.#calls.has(callId)) return;
    this.#calls.add(callId);
    if (name === HANDOFF_TOOL) {
      const input = delegatedInput(args);
      const transcript = this.#transcript.takeForHandoff(input);
      this.#notify('thread/realtime/itemAdded', { item: { type: 'handoff_request', handoff_id: callId, item_id: itemId, input_transcript: input, active_transcript: transcript } });
      return this.#handoffs.deliver({ callId, itemId, input, text: delegationText(input, transcript) });
    }
    // Saying nothing is an answer too: the call is closed without asking for a response. Any other
    // tool is one this session never offered; the model hears so rather than waiting on it.
    this.#send(functionCallOutput(callId, name === SILENCE_TOOL ? '' : JSON.stringify({ error: `there is no tool named ${name}` })));
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
    this.#handoffs.close();
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
