// An absolute filesystem path as the app-server's params carry it (Codex's AbsolutePathBuf).
import * as z from 'zod';
import { AppServerErrorMessage } from './errors.js';
import { lazySchema } from '../lazy-schema.js';

// POSIX `/…`, a Windows drive `C:\…` / `C:/…`, or a UNC `\\server\share`.
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;

function describeType(input: unknown): string {
  if (input === null) return 'null';
  if (typeof input === 'number') return Number.isInteger(input) ? `integer \`${input}\`` : `floating point \`${input}\``;
  if (typeof input === 'boolean') return `boolean \`${input}\``;
  return Array.isArray(input) ? 'sequence' : typeof input === 'object' ? 'map' : typeof input;
}

/** An absolute path; a relative one fails with Codex's own message. */
export const AbsolutePath = lazySchema(() => z
  .string({ error: (issue) => (issue.input === undefined ? undefined : `invalid type: ${describeType(issue.input)}, expected path string`) })
  .refine((value) => ABSOLUTE.test(value), { error: AppServerErrorMessage.RelativePath }));
export type AbsolutePath = z.infer<typeof AbsolutePath>;
