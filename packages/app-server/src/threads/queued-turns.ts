// Delivering a thread's queued messages (`thread/queue/*`): each becomes a turn of its own, the
// first one as soon as the thread is idle, as Codex 0.171.0 delivers them. An interrupted turn
// leaves the queue waiting for the user (`thread/queue/start`), as Codex's does.
import { newTurnId, randomUuidV7 } from '@skein/protocol';
import { QueuedSubmissionError, type QueuedSubmissionStore } from '@skein/rollout';
import { refuse } from '../app-server-error.js';
import type { LiveThread } from './live-thread.js';
import { requestServiceTier } from './service-tier.js';
import type { WireObject } from '@skein/core';

/** Tells a thread's subscribers its queue changed (they read it again with `thread/queue/list`). */
export type QueueChanged = (threadId: string) => void;

/**
 * Starts `submissionId` (else the first queued message) as the thread's next turn and answers the
 * turn; refused in Codex's words while a turn runs, or when nothing (or not that) is queued.
 */
export async function startQueuedTurn(thread: LiveThread, queue: QueuedSubmissionStore, changed: QueueChanged, submissionId?: string): Promise<WireObject> {
  if (thread.activeTurnId !== undefined) refuse('thread already has an active or pending turn');
  let submission;
  try {
    submission = await queue.take(thread.id, submissionId);
  } catch (error) {
    if (error instanceof QueuedSubmissionError) refuse(error.message);
    throw error;
  }
  changed(thread.id);
  return thread.startTurn(submission.input, {
    turnId: newTurnId(randomUuidV7),
    clientUserMessageId: submission.clientUserMessageId,
    clientMetadata: submission.responsesapiClientMetadata,
    serviceTier: requestServiceTier(thread.serviceTier),
  });
}

/** After a turn ended: the next queued message starts, unless the turn was interrupted or nothing waits. */
export async function deliverQueuedAfter(status: 'completed' | 'interrupted' | 'failed', thread: LiveThread, queue: QueuedSubmissionStore, changed: QueueChanged): Promise<void> {
  if (status === 'interrupted' || thread.activeTurnId !== undefined || (await queue.list(thread.id)).length === 0) return;
  // Codex says the queue changed as the turn ends, before the next turn starts.
  await startQueuedTurn(thread, queue, changed);
}
