// `skein debug models`: the model catalog as JSON, in the shape `codex debug models` prints
// (`{"models": [{slug, display_name, …}]}`, snake_case, the picker's order), with the facts Skein's
// catalog holds. Codex's prose (instructions, descriptions, upgrade notes) is not part of it.
import { listModels, type ModelInfo } from '@skein/core';

/** Short words for each reasoning effort (ours), where Codex's catalog has its own descriptions. */
const EFFORT_WORDS: Readonly<Record<string, string>> = {
  low: 'quick answers, light reasoning',
  medium: 'balanced speed and depth',
  high: 'deeper reasoning for hard problems',
  xhigh: 'very deep reasoning',
  max: 'the deepest reasoning',
  ultra: 'the deepest reasoning, delegating parts of the task',
};

/** One model as `codex debug models` lays it out. */
export function catalogEntry(model: ModelInfo, priority: number): Record<string, unknown> {
  const fast = model.fastTier;
  return {
    slug: model.slug,
    display_name: model.displayName,
    default_reasoning_level: model.defaultReasoningEffort ?? null,
    supported_reasoning_levels: model.supportedReasoningEfforts.map((effort) => ({ effort, description: EFFORT_WORDS[effort] ?? effort })),
    shell_type: 'unified_exec',
    visibility: model.hidden ? 'hide' : 'list',
    supported_in_api: true,
    priority,
    additional_speed_tiers: fast === null ? [] : ['fast'],
    service_tiers: fast === null ? [] : [{ id: 'priority', name: 'Fast', description: `${fast.speedup}x speed${fast.increasedUsage ? ', increased usage' : ''}` }],
    upgrade: model.upgrade === null ? null : { model: model.upgrade },
    support_verbosity: model.supportsVerbosity,
    default_verbosity: model.defaultVerbosity ?? null,
    supports_image_detail_original: model.supportsImageDetailOriginal,
    context_window: model.contextWindow,
    effective_context_window_percent: model.effectiveContextWindowPercent,
    input_modalities: model.supportsImageInput ? ['text', 'image'] : ['text'],
    tool_mode: model.toolMode,
    // Codex leaves the key out for models without a multi-agent generation.
    ...(model.multiAgentVersion === null ? {} : { multi_agent_version: model.multiAgentVersion }),
  };
}

/** The catalog document, pretty-printed as Codex prints it. */
export function formatModelCatalog(): string {
  return JSON.stringify({ models: listModels().map((model, index) => catalogEntry(model, index + 1)) }, null, 2);
}
