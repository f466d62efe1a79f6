// `configRequirements/read`: limits an administrator put on the config (allowed sandbox modes,
// approval policies, features, …); Codex answers `requirements: null` when none are set.
import * as z from 'zod';

/** The method takes no params; Codex accepts them absent, `null` or `{}`. */
export const ConfigRequirementsReadParams = z.object({}).optional();
export type ConfigRequirementsReadParams = z.infer<typeof ConfigRequirementsReadParams>;

export const ConfigRequirementsReadResponse = z.object({
  /** The managed requirements, camelCase keys as Codex's `ConfigRequirements`; `null` when none apply. */
  requirements: z.record(z.string(), z.unknown()).nullable(),
  /** Whether the server lets a thread pick its speed tier apart from the reasoning effort. */
  supportsIndependentSpeedModes: z.boolean().nullish(),
});
export type ConfigRequirementsReadResponse = z.infer<typeof ConfigRequirementsReadResponse>;
