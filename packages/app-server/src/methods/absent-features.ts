// Requests about parts of Codex's world Skein has none of — plugin marketplaces, a Bedrock sign-in —
// answered as Codex answers them when none is set up, so clients that ask at start-up (Codex's TUI
// asks both) see "nothing here" rather than an error.
import { BedrockCheckGovCloudRequirementsParams, PluginInstalledParams } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** `plugin/installed` and `account/bedrock/checkGovCloudRequirements`. */
export const ABSENT_FEATURE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'plugin/installed',
    defineMethod({
      params: PluginInstalledParams,
      handle: () => ({ marketplaces: [], marketplaceLoadErrors: [] }),
    }),
  ],
  [
    'account/bedrock/checkGovCloudRequirements',
    defineMethod({
      params: BedrockCheckGovCloudRequirementsParams,
      // Skein has no Bedrock authentication to resolve to a GovCloud region.
      handle: () => ({ isGovCloud: false, shouldWarn: false }),
    }),
  ],
]);
