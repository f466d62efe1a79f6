// `configRequirements/read`: limits an administrator put on the config (allowed sandbox modes,
// approval policies, features, …); Codex answers `requirements: null` when none are set.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** The method takes no params; Codex accepts them absent, `null` or `{}`. */
export const ConfigRequirementsReadParams = lazySchema(() => z.object({}).optional());
export type ConfigRequirementsReadParams = z.infer<typeof ConfigRequirementsReadParams>;

export const ConfigRequirementsReadResponse = lazySchema(() => z.object({
  /** The managed requirements, camelCase keys as Codex's `ConfigRequirements`; `null` when none apply. */
  requirements: z.record(z.string(), z.unknown()).nullable(),
  /** Whether the server lets a thread pick its speed tier apart from the reasoning effort. */
  supportsIndependentSpeedModes: z.boolean().nullish(),
}));
export type ConfigRequirementsReadResponse = z.infer<typeof ConfigRequirementsReadResponse>;
