// `review/start`: what a client asks to have reviewed (its target) and how the review is delivered.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { Turn } from './turn.js';

const TARGET_TYPES = ['uncommittedChanges', 'baseBranch', 'commit', 'custom'] as const;

/** What a review looks at: the working tree against HEAD, a branch's merge base, one commit, or free-form instructions. */
export const ReviewTarget = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('uncommittedChanges') }),
  z.object({ type: z.literal('baseBranch'), branch: z.string() }),
  z.object({ type: z.literal('commit'), sha: z.string(), title: z.string().nullish() }),
  z.object({ type: z.literal('custom'), instructions: z.string() }),
], { error: (issue) => (issue.code === 'invalid_union' ? unknownTargetType(issue.input) : undefined) }));
export type ReviewTarget = z.infer<typeof ReviewTarget>;

/** A target type Codex does not know, in serde's words as Codex answers it. */
function unknownTargetType(target: unknown): string {
  const type = typeof target === 'object' && target !== null ? (target as Record<string, unknown>).type : undefined;
  if (type === undefined) return 'missing field `type`';
  return `unknown variant \`${typeof type === 'string' ? type : JSON.stringify(type)}\`, expected one of ${TARGET_TYPES.map((name) => `\`${name}\``).join(', ')}`;
}

/** Where the review runs: `inline`, in the thread itself (the only delivery Codex 0.171.0 accepts). */
export const ReviewDelivery = lazySchema(() => z.enum(['inline']));
export type ReviewDelivery = z.infer<typeof ReviewDelivery>;

/**
 * `review/start`: reviews `target` in the thread as a turn of its own. Codex names an unknown
 * target type or delivery without a location, as serde does for a bad enum value: those two are
 * checked here, at the top, so their issues carry no path.
 */
export const ReviewStartParams = lazySchema(() =>
  z.object({ threadId: z.string(), target: z.unknown(), delivery: z.unknown().optional() }).transform((params, context) => {
    const target = ReviewTarget.safeParse(params.target);
    if (!target.success) {
      for (const issue of target.error.issues) {
        if (params.target === undefined) context.addIssue({ code: 'custom', path: [], input: undefined, message: 'missing field `target`' });
        else if (issue.code === 'invalid_union' && issue.path.length <= 1) context.addIssue({ code: 'custom', path: [], input: params.target, message: issue.message });
        else context.addIssue({ ...issue, path: ['target', ...issue.path] });
        break;
      }
      return z.NEVER;
    }
    const { delivery } = params;
    if (delivery !== undefined && delivery !== null && delivery !== 'inline') {
      const shown = typeof delivery === 'string' ? delivery : JSON.stringify(delivery);
      context.addIssue({ code: 'custom', path: [], input: delivery, message: `unknown variant \`${shown}\`, expected \`inline\`` });
      return z.NEVER;
    }
    return { threadId: params.threadId, target: target.data, delivery: delivery ?? null };
  }),
);
export type ReviewStartParams = z.infer<typeof ReviewStartParams>;

/** The answer: the review's turn (in progress) and the thread it runs in (the same thread, inline). */
export const ReviewStartResponse = lazySchema(() => z.object({ turn: Turn, reviewThreadId: z.string() }));
export type ReviewStartResponse = z.infer<typeof ReviewStartResponse>;
