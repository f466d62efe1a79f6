// The `token_count` event's `info` (Codex's `TokenUsageInfo`): the thread's running token total,
// the last response's usage and the model's context window, as a resumed thread restores them.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

// A count that is missing or not a count reads as 0, so one odd field does not lose the thread's
// total (core has always read these lines this way).
const count = lazySchema(() => z.number().int().nonnegative().catch(0));

/**
 * Token counts as a `token_count` event carries them: Codex's `TokenUsage` fields, plus
 * `cache_write_input_tokens`, which Skein adds. Unnamed fields are kept.
 */
export const TokenCountUsage = lazySchema(() => z.looseObject({
  input_tokens: count,
  cached_input_tokens: count,
  cache_write_input_tokens: count,
  output_tokens: count,
  reasoning_output_tokens: count,
  total_tokens: count,
}));
export type TokenCountUsage = z.infer<typeof TokenCountUsage>;

/**
 * A `token_count` event's `info`: the totals over the thread, the last response's usage, and the
 * context window (Codex writes `info: null` before the first response; that is not an info).
 */
export const TokenCountInfo = lazySchema(() => z.looseObject({
  total_token_usage: TokenCountUsage,
  last_token_usage: TokenCountUsage,
  model_context_window: z.number().int().nullish().catch(null),
}));
export type TokenCountInfo = z.infer<typeof TokenCountInfo>;
