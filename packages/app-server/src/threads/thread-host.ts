// What a loaded thread (LiveThread) needs from the server it is loaded in, and how a turn may be
// shown to clients other than as it runs (a review).
import type { UserInput } from '@skein/protocol';
import type { ClientConnection } from '../method.js';
import type { AskOptions } from './thread-server-requests.js';
import type { WireObject } from '@skein/core';

/** What a thread needs from the server it is loaded in. */
export interface ThreadHost {
  /** Sends a notification to the thread's subscribers. */
  broadcast(threadId: string, method: string, params: unknown): void;
  /** The clients following the thread, oldest subscription first. */
  subscribers(threadId: string): readonly ClientConnection[];
  /**
   * Sends a server request to the thread's subscribers and resolves to the first answer; it stays
   * pending while clients come and go. Rejects on an error answer, a withdrawal, or no subscriber.
   */
  ask(threadId: string, method: string, params: unknown, options: AskOptions): Promise<unknown>;
  /** Milliseconds since the epoch. */
  now(): number;
  /** A fresh id for items the server names itself (user messages). */
  newItemId(): string;
  /** Records that a turn of the thread ended; answers (a promise of) the thread's new read state, if it keeps one. */
  publishTurn?(threadId: string, turnId: string): unknown;
  /** Called once a turn ended and its `turn/completed` went out (the thread is idle): delivers what was queued. */
  turnEnded?(threadId: string, status: 'completed' | 'interrupted' | 'failed'): void;
}

/**
 * A turn clients see reshaped (a review, `review/start`): items announced before it starts, the
 * user message it shows in place of the model's input, and its agent messages held back — once it
 * ends, the last one's text (undefined when it did not complete) becomes the closing items.
 * Items are given without their times; each goes out started, then completed.
 */
export interface TurnPresentation {
  readonly openingItems: readonly WireObject[];
  readonly shownInput: readonly UserInput[];
  /** The items the turn ends with; an `agentMessage` among them is the turn's summary. */
  closingItems(answer: string | undefined, newItemId: () => string): readonly WireObject[];
}
