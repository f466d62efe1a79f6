// Params of `threadSection/list|create|update|delete` and `thread/section/move`: the named groups a
// client files threads in (Codex's built-in "Pinned" among them) and a thread's place in one.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** How a client shows a section; either field may be unset. */
export const ThreadSectionAppearance = lazySchema(() => z.object({ color: z.string().nullish(), icon: z.string().nullish() }));
export type ThreadSectionAppearance = z.infer<typeof ThreadSectionAppearance>;

/** `threadSection/list`: every section, the built-in one first, paged. */
export const ThreadSectionListParams = lazySchema(() => z.object({ cursor: z.string().nullish(), limit: z.number().int().nonnegative().nullish() }));
export type ThreadSectionListParams = z.infer<typeof ThreadSectionListParams>;

/** `threadSection/create`: a new section (names need not be unique). */
export const ThreadSectionCreateParams = lazySchema(() => z.object({ name: z.string(), appearance: ThreadSectionAppearance.nullish() }));
export type ThreadSectionCreateParams = z.infer<typeof ThreadSectionCreateParams>;

/** `threadSection/update`: renames a section; an omitted `appearance` is kept, `null` clears it. */
export const ThreadSectionUpdateParams = lazySchema(() => z.object({ sectionId: z.string(), name: z.string(), appearance: ThreadSectionAppearance.nullable().optional() }));
export type ThreadSectionUpdateParams = z.infer<typeof ThreadSectionUpdateParams>;

/** `threadSection/delete`: removes a section; its threads are then in none. */
export const ThreadSectionDeleteParams = lazySchema(() => z.object({ sectionId: z.string() }));
export type ThreadSectionDeleteParams = z.infer<typeof ThreadSectionDeleteParams>;

/** `thread/section/move`: files a thread in a section (last, or before another of its threads), or in none (`null`). */
export const ThreadSectionMoveParams = lazySchema(() => z.object({ threadId: z.string(), sectionId: z.string().nullable(), beforeThreadId: z.string().nullish() }));
export type ThreadSectionMoveParams = z.infer<typeof ThreadSectionMoveParams>;
