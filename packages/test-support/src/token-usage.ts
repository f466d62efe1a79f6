// The `usage` object of `response.completed`, in the Responses API's wire shape.

/** Token counts for a completed response; anything left out takes the default noted on it. */
export interface UsageOptions {
  /** Default 100. */
  readonly inputTokens?: number;
  /** `input_tokens_details.cached_tokens`; default 0. */
  readonly cachedTokens?: number;
  /** Default 10. */
  readonly outputTokens?: number;
  /** `output_tokens_details.reasoning_tokens`; default 0. */
  readonly reasoningTokens?: number;
  /** Default `inputTokens + outputTokens`. */
  readonly totalTokens?: number;
}

/** `usage` as the Responses API sends it. */
export interface ResponseUsage {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

/**
 * Builds a wire `usage` object. The defaults (100 in, 10 out) are the numbers Codex's recordings
 * were made with, so token accounting in tests can be compared with them.
 */
export function tokenUsage(options: UsageOptions = {}): ResponseUsage {
  const inputTokens = options.inputTokens ?? 100;
  const outputTokens = options.outputTokens ?? 10;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: options.cachedTokens ?? 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: options.reasoningTokens ?? 0 },
    total_tokens: options.totalTokens ?? inputTokens + outputTokens,
  };
}
