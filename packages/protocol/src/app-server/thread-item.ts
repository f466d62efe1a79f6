// The items of a turn as clients see them (`ThreadItem`, camelCase tags). This version models the
// conversational items; others (commands, file changes, …) are carried through unchanged.
import * as z from 'zod';
import { UserInput } from '../user-input.js';
import { lazySchema } from '../lazy-schema.js';

const timing = lazySchema(() => ({ startedAtMs: z.number().int().nullish(), completedAtMs: z.number().int().nullish() }));

export const UserMessageThreadItem = lazySchema(() => z.object({
  type: z.literal('userMessage'),
  id: z.string(),
  clientId: z.string().nullish(),
  content: z.array(UserInput),
  ...timing,
}));
export type UserMessageThreadItem = z.infer<typeof UserMessageThreadItem>;

export const AgentMessageThreadItem = lazySchema(() => z.object({
  type: z.literal('agentMessage'),
  id: z.string(),
  text: z.string(),
  phase: z.enum(['commentary', 'partial_answer', 'final_answer']).nullish(),
  ...timing,
}));
export type AgentMessageThreadItem = z.infer<typeof AgentMessageThreadItem>;

export const ReasoningThreadItem = lazySchema(() => z.object({
  type: z.literal('reasoning'),
  id: z.string(),
  summary: z.array(z.string()).default([]),
  content: z.array(z.string()).default([]),
  ...timing,
}));
export type ReasoningThreadItem = z.infer<typeof ReasoningThreadItem>;

export const PlanThreadItem = lazySchema(() => z.object({ type: z.literal('plan'), id: z.string(), text: z.string(), ...timing }));
export type PlanThreadItem = z.infer<typeof PlanThreadItem>;

export const ContextCompactionThreadItem = lazySchema(() => z.object({ type: z.literal('contextCompaction'), id: z.string(), ...timing }));
export type ContextCompactionThreadItem = z.infer<typeof ContextCompactionThreadItem>;

/** A review began (`review/start`): `review` is what it looks at, as the client was told (`current changes`, …). */
export const EnteredReviewModeThreadItem = lazySchema(() => z.object({ type: z.literal('enteredReviewMode'), id: z.string(), review: z.string(), ...timing }));
export type EnteredReviewModeThreadItem = z.infer<typeof EnteredReviewModeThreadItem>;

/** A review ended: `review` is its findings as text (the model's answer, rendered). */
export const ExitedReviewModeThreadItem = lazySchema(() => z.object({ type: z.literal('exitedReviewMode'), id: z.string(), review: z.string(), ...timing }));
export type ExitedReviewModeThreadItem = z.infer<typeof ExitedReviewModeThreadItem>;

const modelled = lazySchema(() => z.discriminatedUnion('type', [
  UserMessageThreadItem,
  AgentMessageThreadItem,
  ReasoningThreadItem,
  PlanThreadItem,
  ContextCompactionThreadItem,
  EnteredReviewModeThreadItem,
  ExitedReviewModeThreadItem,
]));
// Read off the union when first needed, so the item schemas stay unbuilt until a thread item is parsed.
let modelledTypes: ReadonlySet<string> | undefined;
const isModelledType = (type: string): boolean => (modelledTypes ??= new Set(modelled.options.map((option) => option.shape.type.value))).has(type);

/** A thread item of a kind this version does not model yet, kept whole. */
export const OtherThreadItem = lazySchema(() => z.looseObject({
  type: z.string().refine((type) => !isModelledType(type), 'this item type has its own schema'),
  id: z.string(),
}));
export type OtherThreadItem = z.infer<typeof OtherThreadItem>;

/** One item of a turn. */
export const ThreadItem = lazySchema(() => z.union([modelled, OtherThreadItem]));
export type ThreadItem = z.infer<typeof ThreadItem>;
