// `configRequirements/read`: Skein reads no managed requirements (an administrator's limits on the
// config), so the answer is Codex's for a machine without them.
import { ConfigRequirementsReadParams, type ConfigRequirementsReadResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `configRequirements/read` method. */
export const CONFIG_REQUIREMENTS_READ_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'configRequirements/read',
    defineMethod({
      params: ConfigRequirementsReadParams,
      handle(): ConfigRequirementsReadResponse {
        // Codex 0.171.0 answers `supportsIndependentSpeedModes: true` with or without requirements.
        return { supportsIndependentSpeedModes: true, requirements: null };
      },
    }),
  ],
]);
