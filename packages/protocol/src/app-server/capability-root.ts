// Capability roots: places the hosting platform selected for a thread (a directory of skills, say),
// as `thread/start`'s `selectedCapabilityRoots` carries them.
import { z } from 'zod';
import { AbsolutePath } from './absolute-path.js';

/** Where a root can be resolved: a path owned by an execution environment (the only kind in Codex 0.171.0). */
export const CapabilityRootLocation = z.object({
  type: z.literal('environment'),
  environmentId: z.string(),
  /** Absolute path of the root in that environment. */
  path: AbsolutePath,
});
export type CapabilityRootLocation = z.infer<typeof CapabilityRootLocation>;

/** A root the hosting platform selected for a thread; `id` is the platform's stable identifier. */
export const SelectedCapabilityRoot = z.object({
  id: z.string(),
  location: CapabilityRootLocation,
});
export type SelectedCapabilityRoot = z.infer<typeof SelectedCapabilityRoot>;
