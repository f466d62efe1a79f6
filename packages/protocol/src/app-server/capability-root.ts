// Capability roots: places the hosting platform selected for a thread (a directory of skills, say),
// as `thread/start`'s `selectedCapabilityRoots` carries them.
import * as z from 'zod';
import { PathUri } from '../path-uri.js';
import { AbsolutePath } from './absolute-path.js';
import { lazySchema } from '../lazy-schema.js';

/** Whether the path has a `file:` URI (as threads record it): no NULs, no `..` above the root, no `\` in POSIX names. */
function hasFileUri(path: string): boolean {
  try {
    PathUri.fromNativePath(path, /^(?:[A-Za-z]:|\\\\)/.test(path) ? 'windows' : 'posix');
    return true;
  } catch {
    return false;
  }
}

/** Where a root can be resolved: a path owned by an execution environment (the only kind in Codex 0.171.0). */
export const CapabilityRootLocation = lazySchema(() => z.object({
  type: z.literal('environment'),
  environmentId: z.string(),
  /** Absolute path of the root in that environment. */
  path: AbsolutePath.refine(hasFileUri, { error: 'path cannot be written as a file: URI' }),
}));
export type CapabilityRootLocation = z.infer<typeof CapabilityRootLocation>;

/** A root the hosting platform selected for a thread; `id` is the platform's stable identifier. */
export const SelectedCapabilityRoot = lazySchema(() => z.object({
  id: z.string(),
  location: CapabilityRootLocation,
}));
export type SelectedCapabilityRoot = z.infer<typeof SelectedCapabilityRoot>;
