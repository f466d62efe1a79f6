// `model/list`: the models of core's catalog with the presentation Codex clients expect, paginated.
import { findModelInfo, listModels, type FastTier, type ModelInfo } from '@skein/core';
import { ModelListParams, type Model, type ModelListResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';
import { paginate } from '../pagination.js';

// Our own one-liners for each effort level a model may offer.
const EFFORT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  minimal: 'Least reasoning, quickest answers',
  low: 'Quick answers with light reasoning',
  medium: 'A balance of speed and depth for most work',
  high: 'Deeper reasoning for harder problems',
  xhigh: 'Extra-deep reasoning for the hardest problems',
  max: 'Even more reasoning, for long and intricate work',
  ultra: 'The most reasoning, working through several lines at once',
};

// Our one-liners, by how the model takes its tools.
const DESCRIPTIONS: Readonly<Record<ModelInfo['toolMode'], string>> = {
  direct: 'Takes its tools directly; the model Skein runs best today.',
  code_mode_only: 'Writes JavaScript cells that call its tools (code mode), as Codex runs it.',
};

/** What a client shows when offering the newer model (Codex's TUI: its migration screen), in our words. */
function upgradeInfo(target: string): Model['upgradeInfo'] {
  const name = findModelInfo(target)?.displayName ?? target;
  return {
    model: target,
    upgradeCopy: null,
    modelLink: null,
    migrationMarkdown: `**${name} is available**\n\nA newer model for the same work. Switch to it now, or later with \`/model\` or \`model = "${target}"\` in config.toml.`,
    // No bundled model is being retired, in Codex's catalog either.
    retirementAt: null,
  };
}

/** The `priority` tier as a picker offers it ("Fast", as Codex names it), described in our words. */
function serviceTiers(tier: FastTier | null): Model['serviceTiers'] {
  if (tier === null) return [];
  const usage = tier.increasedUsage ? ', at a higher usage rate' : ', at the usual usage rate';
  return [{ id: 'priority', name: 'Fast', description: `About ${tier.speedup}× the speed${usage}` }];
}

function toModel(info: ModelInfo): Model {
  return {
    id: info.slug,
    model: info.slug,
    upgrade: info.upgrade,
    upgradeInfo: info.upgrade === null ? null : upgradeInfo(info.upgrade),
    availabilityNux: info.announced ? { message: `${info.displayName} is here: try it on your hardest work.` } : null,
    displayName: info.displayName,
    description: DESCRIPTIONS[info.toolMode],
    modelSpecialty: info.specialty,
    hidden: info.hidden,
    supportedReasoningEfforts: info.supportedReasoningEfforts.map((effort) => ({
      reasoningEffort: effort,
      description: EFFORT_DESCRIPTIONS[effort] ?? effort,
    })),
    defaultReasoningEffort: info.defaultReasoningEffort ?? 'medium',
    inputModalities: ['text', 'image'],
    supportsPersonality: false,
    multiAgentVersion: info.multiAgentVersion,
    additionalSpeedTiers: info.fastTier === null ? [] : ['fast'],
    serviceTiers: serviceTiers(info.fastTier),
    defaultServiceTier: info.fastTier?.isDefault === true ? 'priority' : null,
    availableAccessPrograms: null,
    // Codex's catalog default, never the configured model: Codex's TUI moves a user whose model is
    // the default to its upgrade and writes that into config.toml (issue #35).
    isDefault: info.isCatalogDefault,
  };
}

/** The `model/list` method. */
export const MODEL_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'model/list',
    defineMethod({
      params: ModelListParams,
      handle(params): ModelListResponse {
        const models = listModels()
          .filter((info) => params.includeHidden === true || !info.hidden)
          .map(toModel);
        return paginate(models, params);
      },
    }),
  ],
]);
