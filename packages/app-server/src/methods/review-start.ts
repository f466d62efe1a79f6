// `review/start`: reviews a target (the uncommitted changes, a branch, a commit, or free-form
// instructions) as a turn of the thread itself (`inline`, the only delivery Codex accepts). The
// changes are gathered with git on the thread's primary environment before the turn starts and put
// in the prompt; clients see Codex's review items around the turn (see reviewPresentation).
import { gatherReviewChanges, parseReviewOutput, renderReviewOutput, REVIEW_OUTPUT_SCHEMA, ReviewError, reviewHint, reviewPrompt, reviewRequest, type ReviewChanges } from '@skein/core';
import { newTurnId, randomUuidV7, ReviewStartParams, type ReviewTarget } from '@skein/protocol';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { LiveThread, TurnPresentation } from '../threads/live-thread.js';
import { requestServiceTier } from '../threads/service-tier.js';
import { agentMessageItem } from '@skein/core';

/** The review method. */
export const REVIEW_START_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'review/start',
    defineMethod({
      params: ReviewStartParams,
      async handle(params, context) {
        const thread = context.server.threads.loaded(params.threadId);
        const { target } = params;
        const blank = blankField(target);
        if (blank !== undefined) refuse(`${blank} must not be empty`);
        assertIdle(thread);
        const changes = await changesFor(thread, target);
        // A turn may have started while git ran; nothing has changed yet.
        assertIdle(thread);
        const hint = reviewHint(target);
        const turnId = newTurnId(randomUuidV7);
        const turn = thread.startTurn([{ type: 'text', text: reviewPrompt(target, changes), text_elements: [] }], {
          turnId,
          outputSchema: REVIEW_OUTPUT_SCHEMA,
          serviceTier: requestServiceTier(thread.serviceTier),
          presentation: reviewPresentation(hint, reviewRequest(target, changes)),
        });
        // As Codex answers: the turn names the review by its hint, as a user message under the turn's id.
        const hintMessage = { type: 'userMessage', id: turnId, clientId: null, content: [{ type: 'text', text: hint, text_elements: [] }], startedAtMs: null, completedAtMs: null };
        return { turn: { ...turn, rootTurnId: null, items: [hintMessage] }, reviewThreadId: thread.id };
      },
    }),
  ],
]);

/** The target's field that must hold text but is blank, if any (Codex refuses those by name). */
function blankField(target: ReviewTarget): string | undefined {
  switch (target.type) {
    case 'baseBranch':
      return target.branch.trim() === '' ? 'branch' : undefined;
    case 'commit':
      return target.sha.trim() === '' ? 'sha' : undefined;
    case 'custom':
      return target.instructions.trim() === '' ? 'instructions' : undefined;
    case 'uncommittedChanges':
      return undefined;
  }
}

/** What the review looks at; a target git cannot show (or that shows nothing) is refused (-32600). */
async function changesFor(thread: LiveThread, target: ReviewTarget): Promise<ReviewChanges | undefined> {
  try {
    return await gatherReviewChanges((argv, options) => thread.handle.captureCommand(argv, options), target, thread.handle.config.cwd);
  } catch (error) {
    if (error instanceof ReviewError) refuse(error.message);
    throw error;
  }
}

function assertIdle(thread: LiveThread): void {
  if (thread.activeTurnId !== undefined) refuse(`turn ${thread.activeTurnId} is still running; wait for it or interrupt it before starting a review`);
}

/**
 * What clients see of a review turn, in Codex's order: `enteredReviewMode` (the hint) before the
 * turn starts, the one-line request as its user message (the model's prompt also holds the
 * instructions and the diff), and — in place of the model's JSON answer — `exitedReviewMode` and
 * an `agentMessage`, both with the review rendered as text.
 */
function reviewPresentation(hint: string, request: string): TurnPresentation {
  return {
    openingItems: [{ type: 'enteredReviewMode', id: randomUuidV7(), review: hint }],
    shownInput: [{ type: 'text', text: request, text_elements: [] }],
    closingItems(answer, newItemId) {
      // An interrupted or failed review ends review mode with nothing to show.
      if (answer === undefined) return [{ type: 'exitedReviewMode', id: newItemId(), review: '' }];
      const review = renderReviewOutput(parseReviewOutput(answer));
      return [{ type: 'exitedReviewMode', id: newItemId(), review }, agentMessageItem({ id: `msg_${newItemId()}` }, review, 0, null)];
    },
  };
}
