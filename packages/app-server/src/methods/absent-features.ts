// Requests about parts of Codex's world Skein has none of — a Bedrock sign-in — answered as Codex
// answers them when none is set up, so clients that ask at start-up (Codex's TUI asks) see
// "nothing here" rather than an error.
import { BedrockCheckGovCloudRequirementsParams } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** `account/bedrock/checkGovCloudRequirements`. */
export const ABSENT_FEATURE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'account/bedrock/checkGovCloudRequirements',
    defineMethod({
      params: BedrockCheckGovCloudRequirementsParams,
      // Skein has no Bedrock authentication to resolve to a GovCloud region.
      handle: () => ({ isGovCloud: false, shouldWarn: false }),
    }),
  ],
]);
