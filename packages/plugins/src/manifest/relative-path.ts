// Paths inside a marketplace or plugin manifest are relative to its root and stay beneath it:
// `./plugins/alpha`, never `../elsewhere` or `/etc`.
import path from 'node:path';
import * as z from 'zod';

/** A `./`-relative path with only plain segments. */
export const RelativeManifestPath = z.string().refine((value) => {
  if (!value.startsWith('./')) return false;
  const segments = value.slice(2).split(/[\\/]/).filter((segment) => segment !== '');
  return segments.every((segment) => segment !== '.' && segment !== '..');
}, { error: 'must be a path starting with `./` that stays inside its root' });

/** `relative` (already checked) resolved under `root`. */
export function beneath(root: string, relative: string): string {
  const joined = path.join(root, relative);
  return joined.length > 1 && joined.endsWith(path.sep) ? joined.slice(0, -1) : joined;
}
