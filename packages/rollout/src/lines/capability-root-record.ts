// `session_meta.selected_capability_roots`: the capability roots a thread was started with, as Codex
// 0.171.0 records them — the app-server's `{id, location}` with the location's path as a `file:` URI.
import { lazySchema, PathUri, PathUriError, SelectedCapabilityRoot } from '@skein/protocol';
import * as z from 'zod';

/** One recorded root. Unknown fields are kept; the path is a `file:` URI (a native absolute path is read too). */
export const CapabilityRootRecord = lazySchema(() => z.looseObject({
  id: z.string(),
  location: z.looseObject({ type: z.literal('environment'), environmentId: z.string(), path: z.string() }),
}));
export type CapabilityRootRecord = z.infer<typeof CapabilityRootRecord>;

/** A root as the header records it. @throws PathUriError for a path that has no `file:` URI. */
export function capabilityRootRecord(root: SelectedCapabilityRoot): CapabilityRootRecord {
  const convention = /^(?:[A-Za-z]:|\\\\)/.test(root.location.path) ? 'windows' : 'posix';
  return { id: root.id, location: { ...root.location, path: PathUri.fromNativePath(root.location.path, convention).toString() } };
}

/** The outcome of reading a header's roots: the roots, or why they could not be read. */
export type RecordedCapabilityRoots = { readonly ok: true; readonly roots: SelectedCapabilityRoot[] } | { readonly ok: false; readonly message: string };

/** Reads `selected_capability_roots` back (absent or null: none). */
export function capabilityRootsFromRecord(value: unknown): RecordedCapabilityRoots {
  if (value === undefined || value === null) return { ok: true, roots: [] };
  const parsed = z.array(CapabilityRootRecord).safeParse(value);
  if (!parsed.success) return { ok: false, message: `selected_capability_roots: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  try {
    const roots = parsed.data.map((record) => {
      const { path } = record.location;
      const uri = path.startsWith('file:') ? PathUri.parse(path) : undefined;
      return SelectedCapabilityRoot.parse({ id: record.id, location: { type: 'environment', environmentId: record.location.environmentId, path: uri === undefined ? path : uri.toNativePath(uri.convention) } });
    });
    return { ok: true, roots };
  } catch (error) {
    if (error instanceof PathUriError || error instanceof z.ZodError) return { ok: false, message: `selected_capability_roots: ${error.message}` };
    throw error;
  }
}
