// `experimentalFeature/enablement/set`: switches features for the whole server process. Only the
// features Codex switches at runtime are taken; the state replaces their defaults below every config
// layer (a config file that sets one still decides it) and is not written anywhere.
import { RUNTIME_ENABLEMENT_FEATURES } from '@skein/features';
import { ExperimentalFeatureEnablementSetParams, type ExperimentalFeatureEnablementSetResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

const RUNTIME_FEATURES: ReadonlySet<string> = new Set(RUNTIME_ENABLEMENT_FEATURES);

/** The `experimentalFeature/enablement/set` method. */
export const EXPERIMENTAL_FEATURE_ENABLEMENT_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'experimentalFeature/enablement/set',
    defineMethod({
      params: ExperimentalFeatureEnablementSetParams,
      async handle(params, { server }): Promise<ExperimentalFeatureEnablementSetResponse> {
        // Codex answers the accepted entries sorted by name, whatever it did with the rest.
        const accepted = Object.fromEntries(
          Object.entries(params.enablement)
            .filter(([name]) => RUNTIME_FEATURES.has(name))
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        );
        if (Object.keys(accepted).length > 0) await server.changeConfig(() => server.setFeatureEnablement(accepted));
        return { enablement: accepted };
      },
    }),
  ],
]);
