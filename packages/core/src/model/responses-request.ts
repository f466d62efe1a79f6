// The body of one sampling request, in the shape and key order Codex 0.171.0 sends for direct-tool
// models: model, stream, service_tier (only when the turn asks for one), input, tools, tool_choice, parallel_tool_calls, reasoning, store, include,
// prompt_cache_key, text, client_metadata. Never an `instructions` field: base instructions travel
// as the first developer message.
import { withoutResponseItemMetadata, type ResponseItem } from '@skein/protocol';
import type { ModelInfo } from './model-catalog.js';

/** Everything one request needs; the turn loop fills it in. */
export interface SamplingRequest {
  readonly model: ModelInfo;
  readonly input: readonly ResponseItem[];
  /** Tool definitions as the Responses API takes them. */
  readonly tools: readonly Readonly<Record<string, unknown>>[];
  /** Overrides the model's default effort (`model_reasoning_effort`, `turn/start` effort). */
  readonly reasoningEffort?: string | undefined;
  readonly reasoningSummary?: string | undefined;
  readonly verbosity?: 'low' | 'medium' | 'high' | undefined;
  /** A JSON Schema the final answer must follow (`--output-schema`, `outputSchema`). */
  readonly outputSchema?: unknown;
  /** The Responses API tier the turn asked for (`priority`, `flex`); unset sends none, the provider's default. */
  readonly serviceTier?: ResponsesServiceTier | undefined;
  /** The thread id: requests of one thread share a cache key. */
  readonly promptCacheKey: string;
  readonly clientMetadata: Readonly<Record<string, string>>;
  /** Drop Skein's item `metadata` (providers other than OpenAI reject unknown fields). */
  readonly stripItemMetadata: boolean;
  /** A compaction request: the turn's keys, but `tools: []` always present and no parallel calls (as Codex sends it). */
  readonly compaction?: boolean;
}

/** The service tiers a request may name; any other tier is the provider's default and is not sent. */
export type ResponsesServiceTier = 'priority' | 'flex';

/** The name Codex gives an output schema in `text.format`. */
export const OUTPUT_SCHEMA_NAME = 'codex_output_schema';

/** Builds the JSON body for `POST /responses`. */
export function buildResponsesBody(request: SamplingRequest): Record<string, unknown> {
  const { model } = request;
  const effort = request.reasoningEffort ?? model.defaultReasoningEffort;
  const reasoning = model.supportsReasoning
    ? {
        ...(effort === undefined ? {} : { effort }),
        ...(request.reasoningSummary === undefined || request.reasoningSummary === 'none' ? {} : { summary: request.reasoningSummary }),
        ...(model.useResponsesLite ? { context: 'all_turns' } : {}),
      }
    : undefined;
  const verbosity = model.supportsVerbosity ? (request.verbosity ?? model.defaultVerbosity) : undefined;
  const text = {
    ...(verbosity === undefined ? {} : { verbosity }),
    ...(request.outputSchema === undefined ? {} : { format: { type: 'json_schema', strict: true, schema: request.outputSchema, name: OUTPUT_SCHEMA_NAME } }),
  };
  return {
    model: model.slug,
    stream: true,
    ...(request.serviceTier === undefined ? {} : { service_tier: request.serviceTier }),
    input: request.stripItemMetadata ? request.input.map(withoutResponseItemMetadata) : request.input,
    ...(request.tools.length === 0 && request.compaction !== true ? {} : { tools: request.tools }),
    tool_choice: 'auto',
    parallel_tool_calls: request.compaction === true ? false : model.supportsParallelToolCalls,
    ...(reasoning === undefined ? {} : { reasoning }),
    store: false,
    include: reasoning === undefined ? [] : ['reasoning.encrypted_content'],
    prompt_cache_key: request.promptCacheKey,
    ...(Object.keys(text).length === 0 ? {} : { text }),
    client_metadata: request.clientMetadata,
  };
}
