// `exec review`: what to review (from `--uncommitted`, `--base`, `--commit` or free-form
// instructions, refused as `codex exec review` refuses them), and the review's answer as Codex's
// exec shows it — one agent message holding the rendered review in place of the model's JSON.
import { gatherReviewChanges, parseReviewOutput, renderReviewOutput, reviewPrompt, type CoreEvent, type ThreadHandle } from '@skein/core';
import type { ReviewTarget, UserInput } from '@skein/protocol';

/** The `exec review` flags that choose the target. */
export interface ReviewTargetFlags {
  readonly uncommitted?: boolean;
  readonly base?: string;
  readonly commit?: string;
  readonly title?: string;
}

/** Flags that cannot go together (a usage error: exit 2, as a flag parser reports it) or no target at all (exit 1). */
export class ReviewTargetError extends Error {
  override readonly name = 'ReviewTargetError';
  constructor(
    readonly code: 'ConflictingReviewFlags' | 'NoReviewTarget',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The target the flags and `instructions` (the prompt, already read from stdin when it was `-`)
 * name. At most one of --uncommitted, --base, --commit and instructions; --title only with --commit.
 */
export function reviewTargetFrom(flags: ReviewTargetFlags, instructions: string | undefined): ReviewTarget {
  const chosen = [
    flags.uncommitted === true ? '--uncommitted' : undefined,
    flags.base === undefined ? undefined : '--base <BRANCH>',
    flags.commit === undefined ? undefined : '--commit <SHA>',
    instructions === undefined ? undefined : '[PROMPT]',
  ].filter((name) => name !== undefined);
  const [first, second] = chosen;
  if (first !== undefined && second !== undefined) throw new ReviewTargetError('ConflictingReviewFlags', `the argument '${first}' cannot be used with '${second}'`);
  if (flags.title !== undefined && flags.commit === undefined) throw new ReviewTargetError('ConflictingReviewFlags', "--title names a commit's review: it needs --commit <SHA>");
  if (flags.uncommitted === true) return { type: 'uncommittedChanges' };
  if (flags.base !== undefined) return { type: 'baseBranch', branch: flags.base };
  if (flags.commit !== undefined) return { type: 'commit', sha: flags.commit, title: flags.title ?? null };
  if (instructions === undefined || instructions.trim() === '') throw new ReviewTargetError('NoReviewTarget', 'Specify --uncommitted, --base, --commit, or provide custom review instructions');
  return { type: 'custom', instructions };
}

/** What the model receives for `target`: the changes, read with git on the thread's environment, in the review prompt. */
export async function reviewInput(handle: ThreadHandle, target: ReviewTarget): Promise<UserInput[]> {
  const changes = await gatherReviewChanges((argv, options) => handle.captureCommand(argv, options), target, handle.config.cwd);
  return [{ type: 'text', text: reviewPrompt(target, changes), text_elements: [] }];
}

/**
 * Passes a review turn's events on with the model's answer replaced: its agent messages are held
 * back, and when the turn completes one agent message with the rendered review comes first (in both
 * forms the printers read: the response item and the turn item). Other turns pass unchanged.
 */
export class ReviewAnswer {
  #answer: string | undefined;
  #rendered: string | undefined;

  constructor(private readonly emit: (event: CoreEvent) => void) {}

  /** The rendered review, once the turn has completed. */
  get text(): string | undefined {
    return this.#rendered;
  }

  readonly onEvent = (event: CoreEvent): void => {
    if (event.type === 'itemCompleted' && event.item.type === 'message' && event.item.role === 'assistant') return;
    if (event.type === 'turnItem' && event.item.kind === 'agentMessage') {
      if (event.phase === 'completed') this.#answer = event.item.text;
      return;
    }
    if (event.type === 'turnCompleted') {
      const text = renderReviewOutput(parseReviewOutput(event.lastAgentMessage ?? this.#answer ?? ''));
      this.#rendered = text;
      const id = `msg_review_${event.turnId}`;
      const now = Date.now();
      this.emit({ type: 'itemCompleted', turnId: event.turnId, item: { type: 'message', id, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] } });
      this.emit({ type: 'turnItem', phase: 'completed', turnId: event.turnId, item: { kind: 'agentMessage', id, text, phase: null, startedAtMs: now, completedAtMs: now } });
      this.emit({ ...event, lastAgentMessage: text });
      return;
    }
    this.emit(event);
  };
}
