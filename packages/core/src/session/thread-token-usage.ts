// A thread's token accounting: the last response's usage and the running total across turns, in the
// breakdown clients show and rollouts record (`token_count`), restored from the rollout on resume.
import { z } from 'zod';
import type { TokenUsage } from '../model-client/response-event.js';

/** Token counts of one response, or summed over a thread. */
export interface TokenUsageBreakdown {
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteInputTokens: number;
  readonly outputTokens: number;
  readonly reasoningOutputTokens: number;
  readonly totalTokens: number;
}

/** Nothing used yet. */
export const NO_TOKENS: TokenUsageBreakdown = {
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
  totalTokens: 0,
};

/** The breakdown of a Responses API `usage` object. */
export function breakdownOf(usage: TokenUsage): TokenUsageBreakdown {
  return {
    inputTokens: usage.input_tokens,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteInputTokens: 0,
    outputTokens: usage.output_tokens,
    reasoningOutputTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
    totalTokens: usage.total_tokens,
  };
}

/** The sum of two breakdowns. */
export function addUsage(a: TokenUsageBreakdown, b: TokenUsageBreakdown): TokenUsageBreakdown {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    cacheWriteInputTokens: a.cacheWriteInputTokens + b.cacheWriteInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningOutputTokens: a.reasoningOutputTokens + b.reasoningOutputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

const count = z.number().int().nonnegative().catch(0);
/** A rollout's snake_case usage, as `token_count` lines carry it. */
export const RolloutTokenUsage = z
  .object({
    input_tokens: count,
    cached_input_tokens: count,
    cache_write_input_tokens: count,
    output_tokens: count,
    reasoning_output_tokens: count,
    total_tokens: count,
  })
  .transform(
    (usage): TokenUsageBreakdown => ({
      inputTokens: usage.input_tokens,
      cachedInputTokens: usage.cached_input_tokens,
      cacheWriteInputTokens: usage.cache_write_input_tokens,
      outputTokens: usage.output_tokens,
      reasoningOutputTokens: usage.reasoning_output_tokens,
      totalTokens: usage.total_tokens,
    }),
  );

/** The `info` of a rollout `token_count` line. */
export const RolloutTokenCountInfo = z.looseObject({ total_token_usage: RolloutTokenUsage, last_token_usage: RolloutTokenUsage });

/** A breakdown in the rollout's snake_case form. */
export function rolloutUsage(usage: TokenUsageBreakdown): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    cached_input_tokens: usage.cachedInputTokens,
    cache_write_input_tokens: usage.cacheWriteInputTokens,
    output_tokens: usage.outputTokens,
    reasoning_output_tokens: usage.reasoningOutputTokens,
    total_tokens: usage.totalTokens,
  };
}
