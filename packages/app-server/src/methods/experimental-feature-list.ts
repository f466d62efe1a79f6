// `experimentalFeature/list`: every registered feature flag with Codex's stage name, its default
// and its effective state under the server's config, in Codex's order (Skein's own flags last), paginated.
import { ExperimentalFeatureListParams, type ExperimentalFeature, type ExperimentalFeatureListResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';
import { CODEX_FEATURE_LIST_ORDER } from './codex-feature-order.js';
import { paginate } from '../pagination.js';

/** `analytics_plan_history` → `Analytics plan history`. */
function displayName(key: string): string {
  const words = key.replaceAll('_', ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

const POSITION = new Map(CODEX_FEATURE_LIST_ORDER.map((key, index) => [key, index]));

/** Where a flag goes in the list: Codex's place for it, else after all of Codex's (by key, as the registry holds them). */
const position = (key: string) => POSITION.get(key) ?? CODEX_FEATURE_LIST_ORDER.length;

/** The `experimentalFeature/list` method. */
export const EXPERIMENTAL_FEATURE_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'experimentalFeature/list',
    defineMethod({
      params: ExperimentalFeatureListParams,
      handle(params, { server }): ExperimentalFeatureListResponse {
        const features = [...server.config.config.features.list()].sort((a, b) => position(a.spec.key) - position(b.spec.key)).map(({ spec, enabled }): ExperimentalFeature => {
          // Codex presents beta features to users (name, description, announcement) and no others.
          const beta = spec.stage === 'beta';
          return {
            name: spec.key,
            stage: spec.stage,
            displayName: beta ? displayName(spec.key) : null,
            description: beta ? spec.description : null,
            announcement: beta ? '' : null,
            enabled,
            defaultEnabled: spec.defaultEnabled,
          };
        });
        return paginate(features, params);
      },
    }),
  ],
]);
