// Requests about parts of Codex's world Skein has none of — thread goals, plugin marketplaces, a
// Bedrock sign-in — answered as Codex answers them when none is set up, so clients that ask at
// start-up (Codex's TUI asks all three) see "nothing here" rather than an error.
import { BedrockCheckGovCloudRequirementsParams, PluginInstalledParams, ThreadIdParams } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** `thread/goal/get`, `plugin/installed` and `account/bedrock/checkGovCloudRequirements`. */
export const ABSENT_FEATURE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/goal/get',
    defineMethod({
      params: ThreadIdParams,
      handle(params, { server }) {
        // No goal can be set (thread/goal/set is not served), so a loaded thread never has one.
        server.threads.loaded(params.threadId);
        return { goal: null };
      },
    }),
  ],
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
