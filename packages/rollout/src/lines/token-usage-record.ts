// The `token_usage_record` line: the usage of one model response and the running totals.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/** Token counts as Codex records them. */
export const TokenUsage = lazySchema(() => z.looseObject({
  input_tokens: z.number(),
  cached_input_tokens: z.number().optional(),
  output_tokens: z.number(),
  reasoning_output_tokens: z.number().optional(),
  total_tokens: z.number(),
}));
export type TokenUsage = z.infer<typeof TokenUsage>;

/** One response's usage with the turn's and the thread's totals after it. */
export const TokenUsageRecord = lazySchema(() => z.looseObject({
  thread_id: z.string().nullish(),
  turn_id: z.string().nullish(),
  response_id: z.string().nullish(),
  usage: TokenUsage.nullish(),
  turn_token_usage: TokenUsage.nullish(),
  thread_token_usage: TokenUsage.nullish(),
}));
export type TokenUsageRecord = z.infer<typeof TokenUsageRecord>;
