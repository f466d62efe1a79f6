// `experimentalFeature/list`: every registered feature flag with Codex's stage name, its default
// and its effective state under the server's config, paginated.
import { ExperimentalFeatureListParams, type ExperimentalFeature, type ExperimentalFeatureListResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';
import { paginate } from '../pagination.js';

/** `analytics_plan_history` → `Analytics plan history`. */
function displayName(key: string): string {
  const words = key.replaceAll('_', ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** The `experimentalFeature/list` method. */
export const EXPERIMENTAL_FEATURE_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'experimentalFeature/list',
    defineMethod({
      params: ExperimentalFeatureListParams,
      handle(params, { server }): ExperimentalFeatureListResponse {
        const features = server.config.config.features.list().map(({ spec, enabled }): ExperimentalFeature => {
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
