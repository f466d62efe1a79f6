// `permissionProfile/list`: the permission profiles a thread may run under, paginated.
import * as z from 'zod';
import { PageParams } from './pagination.js';
import { lazySchema } from '../lazy-schema.js';

export const PermissionProfileListParams = lazySchema(() => PageParams.extend({
  /** The directory whose project config would add profiles; absent: the server's. */
  cwd: z.string().nullish(),
}));
export type PermissionProfileListParams = z.infer<typeof PermissionProfileListParams>;

/** One profile: its id (`:read-only` and the other built-ins start with a colon), and whether requirements allow it. */
export const PermissionProfileSummary = lazySchema(() => z.object({
  id: z.string(),
  description: z.string().nullable(),
  allowed: z.boolean(),
}));
export type PermissionProfileSummary = z.infer<typeof PermissionProfileSummary>;

export const PermissionProfileListResponse = lazySchema(() => z.object({ data: z.array(PermissionProfileSummary), nextCursor: z.string().nullable() }));
export type PermissionProfileListResponse = z.infer<typeof PermissionProfileListResponse>;
