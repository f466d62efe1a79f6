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
  /**
   * Codex's `use_responses_lite`: requests say so in `x-openai-internal-codex-responses-lite` and
   * ask for reasoning over all turns (`reasoning.context: "all_turns"`). Every bundled model but gpt-5.5.
   */
  readonly useResponsesLite: boolean;
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
  /** The name a model picker shows. */
  readonly displayName: string;
  /** Left out of model pickers unless they ask for hidden models. */
  readonly hidden: boolean;
  /** The model a picker suggests moving to, if any. */
  readonly upgrade: string | null;
  /** The faster `priority` service tier the model offers, if any. */
  readonly fastTier: FastTier | null;
  /** Which multi-agent tool set the model is trained on (Codex's catalog `multi_agent_version`), if any. */
  readonly multiAgentVersion: MultiAgentVersion | null;
  /** The work the model is made for beyond general coding (Codex's `cyber` for the Daybreak models), if any. */
  readonly specialty: string | null;
  /** Whether Codex's catalog names it the default model (the one its clients pick when none is configured). */
  readonly isCatalogDefault: boolean;
  /** Whether a picker announces the model's availability to the user (Codex's `availabilityNux`). */
  readonly announced: boolean;
  /**
   * What the hosted web search may return to the model (Codex's catalog `web_search_tool_type`:
   * `text_and_image` is `["text", "image"]`); null when the catalog does not say, and the tool then
   * names none.
   */
  readonly webSearchContentTypes: readonly WebSearchContentType[] | null;
}

/** A kind of content web search results may hold. */
export type WebSearchContentType = 'text' | 'image';

/** Codex's multi-agent tool generations. */
export type MultiAgentVersion = 'v1' | 'v2';

/** What the `priority` ("Fast") service tier gives on one model. */
export interface FastTier {
  /** How many times faster than the standard tier (1.5, 2). */
  readonly speedup: number;
  /** Whether its requests count more against the account's usage. */
  readonly increasedUsage: boolean;
  /** Whether the catalog names it the model's default tier (applied only to signed-in accounts, in Codex too). */
  readonly isDefault: boolean;
}

/** The facts that vary between Codex 0.171.0's bundled models; the rest are shared. */
interface CatalogEntry {
  readonly slug: string;
  readonly displayName: string;
  readonly contextWindow: number;
  readonly toolMode: ToolMode;
  readonly defaultReasoningEffort: string;
  /** `max` and `ultra` come after `xhigh` where a model offers them. */
  readonly topEfforts: readonly string[];
  readonly defaultVerbosity: 'low' | 'medium' | 'high';
  readonly hidden: boolean;
  readonly upgrade: string | null;
  readonly fastTier: FastTier | null;
  readonly multiAgentVersion?: MultiAgentVersion | null;
  readonly specialty?: string | null;
  readonly isCatalogDefault?: boolean;
  readonly announced?: boolean;
}

function entry(facts: CatalogEntry): ModelInfo {
  return {
    slug: facts.slug,
    displayName: facts.displayName,
    contextWindow: facts.contextWindow,
    effectiveContextWindowPercent: 95,
    toolMode: facts.toolMode,
    useResponsesLite: facts.toolMode === 'code_mode_only',
    supportsReasoning: true,
    defaultReasoningEffort: facts.defaultReasoningEffort,
    supportedReasoningEfforts: ['low', 'medium', 'high', 'xhigh', ...facts.topEfforts],
    supportsVerbosity: true,
    defaultVerbosity: facts.defaultVerbosity,
    // A code-mode model calls one tool at a time (its cells run the rest).
    supportsParallelToolCalls: facts.toolMode !== 'code_mode_only',
    supportsImageInput: true,
    supportsImageDetailOriginal: true,
    hidden: facts.hidden,
    upgrade: facts.upgrade,
    fastTier: facts.fastTier,
    multiAgentVersion: facts.multiAgentVersion ?? null,
    specialty: facts.specialty ?? null,
    isCatalogDefault: facts.isCatalogDefault ?? false,
    announced: facts.announced ?? false,
    // Every model Codex 0.171.0 bundles has `web_search_tool_type: "text_and_image"`.
    webSearchContentTypes: ['text', 'image'],
  };
}

const DOUBLE = { speedup: 2, increasedUsage: true, isDefault: false } as const;
const HALF_AGAIN = { speedup: 1.5, increasedUsage: true, isDefault: false } as const;
const HALF_AGAIN_SAME_USAGE = { speedup: 1.5, increasedUsage: false, isDefault: false } as const;

const CODE_MODE = { toolMode: 'code_mode_only', defaultVerbosity: 'low', hidden: false, upgrade: null, multiAgentVersion: 'v2' } as const;
const MAX_ULTRA = ['max', 'ultra'] as const;

/**
 * The models Codex 0.171.0 bundles (`codex debug models`), in the order its model picker lists them.
 * Only gpt-5.5 takes its tools directly; the others run them through code mode, which Skein does not
 * have yet, so a thread on one of them is offered the direct tools instead.
 */
const CATALOG: readonly ModelInfo[] = [
  entry({ ...CODE_MODE, slug: 'gpt-6.2-sol', isCatalogDefault: true, fastTier: DOUBLE, displayName: 'GPT-6.2-Sol', contextWindow: 500_000, defaultReasoningEffort: 'low', topEfforts: MAX_ULTRA }),
  entry({ ...CODE_MODE, slug: 'gpt-6.2-astra', fastTier: DOUBLE, displayName: 'GPT-6.2-Astra', contextWindow: 272_000, defaultReasoningEffort: 'low', topEfforts: MAX_ULTRA }),
  entry({ ...CODE_MODE, slug: 'gpt-6.1-terra', fastTier: HALF_AGAIN_SAME_USAGE, displayName: 'GPT-6.1 Terra', contextWindow: 500_000, defaultReasoningEffort: 'low', topEfforts: MAX_ULTRA }),
  entry({ ...CODE_MODE, slug: 'gpt-6.1-sol', announced: true, fastTier: DOUBLE, displayName: 'GPT-6.1-Sol', contextWindow: 500_000, defaultReasoningEffort: 'low', topEfforts: MAX_ULTRA }),
  entry({ ...CODE_MODE, slug: 'gpt-6-astra', fastTier: DOUBLE, displayName: 'GPT-6-Astra', contextWindow: 272_000, defaultReasoningEffort: 'low', topEfforts: MAX_ULTRA }),
  entry({ ...CODE_MODE, slug: 'gpt-6-sol', fastTier: { ...HALF_AGAIN_SAME_USAGE, isDefault: true }, displayName: 'GPT-6-Sol', contextWindow: 272_000, defaultReasoningEffort: 'medium', topEfforts: MAX_ULTRA }),
  entry({ ...CODE_MODE, slug: 'gpt-6-luna', fastTier: { ...HALF_AGAIN_SAME_USAGE, isDefault: true }, displayName: 'GPT-6-Luna', contextWindow: 272_000, defaultReasoningEffort: 'medium', topEfforts: ['max'] }),
  entry({ ...CODE_MODE, slug: 'gpt-5.6-sol', fastTier: HALF_AGAIN, displayName: 'GPT-5.6-Sol', contextWindow: 272_000, defaultReasoningEffort: 'low', topEfforts: MAX_ULTRA, upgrade: 'gpt-6-sol' }),
  entry({ ...CODE_MODE, slug: 'gpt-5.6-terra', fastTier: HALF_AGAIN, displayName: 'GPT-5.6-Terra', contextWindow: 272_000, defaultReasoningEffort: 'medium', topEfforts: MAX_ULTRA, upgrade: 'gpt-6-sol' }),
  entry({ ...CODE_MODE, slug: 'gpt-5.6-luna', multiAgentVersion: 'v1', fastTier: HALF_AGAIN, displayName: 'GPT-5.6-Luna', contextWindow: 272_000, defaultReasoningEffort: 'medium', topEfforts: ['max'], upgrade: 'gpt-6-luna' }),
  entry({ ...CODE_MODE, slug: 'gpt-daybreak-blue-latest', specialty: 'cyber', fastTier: null, displayName: 'Daybreak Blue', contextWindow: 272_000, defaultReasoningEffort: 'low', topEfforts: MAX_ULTRA, hidden: true }),
  entry({ ...CODE_MODE, slug: 'gpt-daybreak-red-latest', specialty: 'cyber', fastTier: null, displayName: 'Daybreak Red', contextWindow: 372_000, defaultReasoningEffort: 'medium', topEfforts: MAX_ULTRA, defaultVerbosity: 'high', hidden: true }),
  entry({ slug: 'gpt-5.5', fastTier: HALF_AGAIN, displayName: 'GPT-5.5', contextWindow: 272_000, toolMode: 'direct', defaultReasoningEffort: 'medium', topEfforts: [], defaultVerbosity: 'low', hidden: false, upgrade: 'gpt-6-sol' }),
  entry({ ...CODE_MODE, slug: 'codex-auto-review', multiAgentVersion: 'v1', fastTier: HALF_AGAIN, displayName: 'Codex Auto Review', contextWindow: 272_000, defaultReasoningEffort: 'medium', topEfforts: ['max'], hidden: true }),
];

/** A conservative description for models the catalog does not know (custom providers, new releases). */
function unknownModel(slug: string): ModelInfo {
  return {
    slug,
    contextWindow: 128_000,
    effectiveContextWindowPercent: 95,
    toolMode: 'direct',
    useResponsesLite: false,
    supportsReasoning: false,
    defaultReasoningEffort: undefined,
    supportedReasoningEfforts: [],
    supportsVerbosity: false,
    defaultVerbosity: undefined,
    supportsParallelToolCalls: false,
    // Codex assumes text and image input for models it does not know, at the standard detail.
    supportsImageInput: true,
    supportsImageDetailOriginal: false,
    displayName: slug,
    hidden: false,
    upgrade: null,
    fastTier: null,
    multiAgentVersion: null,
    specialty: null,
    isCatalogDefault: false,
    announced: false,
    webSearchContentTypes: null,
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

/** Every model the catalog knows, in Codex's picker order (hidden ones included; `model/list` filters). */
export function listModels(): readonly ModelInfo[] {
  return CATALOG;
}

/**
 * The usage at which a thread compacts: `model_auto_compact_token_limit` when set, else nine tenths
 * of the model's window (Codex's default), and never beyond the effective window.
 */
export function autoCompactTokenLimit(info: ModelInfo, configured: number | undefined): number {
  const effective = effectiveContextWindow(info);
  return Math.min(configured ?? Math.floor((info.contextWindow * 9) / 10), effective);
}
