// What Skein knows about each model family: context window, tool style, reasoning and verbosity
// support. Config (`model_context_window`, `model_auto_compact_token_limit`) overrides per thread.

/** How tools reach the model: top-level `tools` (direct), or everything through one `exec` tool. */
export type ToolMode = 'direct' | 'code_mode_only';

/** One model family's capabilities. */
export interface ModelInfo {
  readonly slug: string;
  /** The model's full context window in tokens. */
  readonly contextWindow: number;
  /** The share of the window usable before the harness must compact (Codex reports 95%). */
  readonly effectiveContextWindowPercent: number;
  readonly toolMode: ToolMode;
  readonly supportsReasoning: boolean;
  readonly defaultReasoningEffort: string | undefined;
  readonly supportedReasoningEfforts: readonly string[];
  readonly supportsVerbosity: boolean;
  readonly defaultVerbosity: 'low' | 'medium' | 'high' | undefined;
  readonly supportsParallelToolCalls: boolean;
  /** Whether the model reads images (view_image is offered only then). */
  readonly supportsImageInput: boolean;
  /** Whether images may be sent at `detail: "original"` rather than `"high"`. */
  readonly supportsImageDetailOriginal: boolean;
}

const GPT_5_5: ModelInfo = {
  slug: 'gpt-5.5',
  contextWindow: 272_000,
  effectiveContextWindowPercent: 95,
  toolMode: 'direct',
  supportsReasoning: true,
  defaultReasoningEffort: 'medium',
  supportedReasoningEfforts: ['low', 'medium', 'high', 'xhigh'],
  supportsVerbosity: true,
  defaultVerbosity: 'low',
  supportsParallelToolCalls: true,
  supportsImageInput: true,
  supportsImageDetailOriginal: true,
};

/** Models Skein has tested; prefix matches (`gpt-5.5-2026-…`) use the same entry. */
const CATALOG: readonly ModelInfo[] = [GPT_5_5];

/** A conservative description for models the catalog does not know (custom providers, new releases). */
function unknownModel(slug: string): ModelInfo {
  return {
    slug,
    contextWindow: 128_000,
    effectiveContextWindowPercent: 95,
    toolMode: 'direct',
    supportsReasoning: false,
    defaultReasoningEffort: undefined,
    supportedReasoningEfforts: [],
    supportsVerbosity: false,
    defaultVerbosity: undefined,
    supportsParallelToolCalls: false,
    // Codex assumes text and image input for models it does not know, at the standard detail.
    supportsImageInput: true,
    supportsImageDetailOriginal: false,
  };
}

/** Config values that override the catalog for one thread. */
export interface ModelOverrides {
  readonly contextWindow?: number | undefined;
}

/** The model's info: the catalog entry (exact slug, else longest prefix), else the unknown-model default. */
export function findModelInfo(slug: string, overrides: ModelOverrides = {}): ModelInfo {
  const known =
    CATALOG.find((info) => info.slug === slug) ??
    [...CATALOG].sort((a, b) => b.slug.length - a.slug.length).find((info) => slug.startsWith(`${info.slug}-`));
  const info = known === undefined ? unknownModel(slug) : { ...known, slug };
  return overrides.contextWindow === undefined ? info : { ...info, contextWindow: overrides.contextWindow };
}

/** The tokens the harness may fill: the window times its effective share, rounded down. */
export function effectiveContextWindow(info: ModelInfo): number {
  return Math.floor((info.contextWindow * info.effectiveContextWindowPercent) / 100);
}

/** Every model the catalog knows, in catalog order (what a model picker such as `model/list` offers). */
export function listModels(): readonly ModelInfo[] {
  return CATALOG;
}
