// Which `skill://` resources `skills.read` accepts: the package itself or a canonical child of it — no
// query, fragment, escapes, empty, `.` or `..` segments — and never a file of another package nested
// inside it. Anything else is refused before any provider is asked.

/** Why a resource is refused. */
export class ResourceUriError extends Error {
  override readonly name = 'ResourceUriError';
}

/**
 * The canonical resource for `resource` (default: the package's SKILL.md). `packages` are every
 * package of the same authority, to refuse reads that cross into a nested one.
 */
export function checkedResource(packageUri: string, mainResource: string, resource: string | undefined, packages: readonly string[]): string {
  if (resource === undefined) return mainResource;
  if (!resource.startsWith('skill://')) throw new ResourceUriError(`resource must be a skill:// URI inside ${packageUri}`);
  if (/[?#%\\]/.test(resource)) throw new ResourceUriError('resource may not carry a query, a fragment, escapes or backslashes');
  if (resource !== packageUri && !resource.startsWith(`${packageUri}/`)) throw new ResourceUriError(`resource is not part of the package ${packageUri}`);
  const rest = resource.slice(packageUri.length);
  if (rest !== '') {
    const segments = rest.slice(1).split('/');
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) throw new ResourceUriError('resource must be a canonical path (no empty, `.` or `..` segments)');
  }
  const nested = packages.find((other) => other !== packageUri && other.startsWith(`${packageUri}/`) && (resource === other || resource.startsWith(`${other}/`)));
  if (nested !== undefined) throw new ResourceUriError(`resource belongs to another package (${nested}); read it through that package`);
  return resource;
}
