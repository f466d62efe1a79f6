// `model/list`: the models of core's catalog with the presentation Codex clients expect, paginated.
import { listModels, type ModelInfo } from '@skein/core';
import { ModelListParams, type Model, type ModelListResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';
import { paginate } from '../pagination.js';

// Our own one-liners for each effort level a model may offer.
const EFFORT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  minimal: 'Least reasoning, quickest answers',
  low: 'Quick answers with light reasoning',
  medium: 'A balance of speed and depth for most work',
  high: 'Deeper reasoning for harder problems',
  xhigh: 'The most reasoning this model offers',
};

/** What a picker shows for a catalog model; the catalog itself holds only capabilities. */
const PRESENTATION: Readonly<Record<string, { readonly displayName: string; readonly description: string; readonly upgrade: string | null }>> = {
  'gpt-5.5': { displayName: 'GPT-5.5', description: 'Direct-tools model for coding and everyday work.', upgrade: 'gpt-6-sol' },
};

function toModel(info: ModelInfo, defaultModel: string): Model {
  const presentation = PRESENTATION[info.slug];
  return {
    id: info.slug,
    model: info.slug,
    upgrade: presentation?.upgrade ?? null,
    upgradeInfo: null,
    availabilityNux: null,
    displayName: presentation?.displayName ?? info.slug,
    description: presentation?.description ?? info.slug,
    modelSpecialty: null,
    hidden: false,
    supportedReasoningEfforts: info.supportedReasoningEfforts.map((effort) => ({
      reasoningEffort: effort,
      description: EFFORT_DESCRIPTIONS[effort] ?? effort,
    })),
    defaultReasoningEffort: info.defaultReasoningEffort ?? 'medium',
    inputModalities: ['text', 'image'],
    supportsPersonality: false,
    multiAgentVersion: null,
    additionalSpeedTiers: [],
    serviceTiers: [],
    defaultServiceTier: null,
    availableAccessPrograms: null,
    isDefault: info.slug === defaultModel,
  };
}

/** The `model/list` method. */
export const MODEL_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'model/list',
    defineMethod({
      params: ModelListParams,
      handle(params, { server }): ModelListResponse {
        // The catalog has no hidden models yet; `includeHidden` would add them.
        const models = listModels().map((info) => toModel(info, server.config.config.model));
        return paginate(models, params);
      },
    }),
  ],
]);
