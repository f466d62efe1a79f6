// `fs/watch` / `fs/unwatch` and the `fs/changed` notification: connection-scoped watches of one
// absolute path (a directory's direct children, or one file), with client-chosen ids.
import * as z from 'zod';
import { AbsolutePath } from './absolute-path.js';
import { lazySchema } from '../lazy-schema.js';

/** Starts a watch; `watchId` is chosen by the client and unique within its connection. */
export const FsWatchParams = lazySchema(() => z.object({ watchId: z.string(), path: AbsolutePath }));
export type FsWatchParams = z.infer<typeof FsWatchParams>;
/** The watched path, normalized (`.`/`..` and trailing separators removed). */
export const FsWatchResponse = lazySchema(() => z.object({ path: z.string() }));
export type FsWatchResponse = z.infer<typeof FsWatchResponse>;

/** Stops a watch; an unknown id is not an error. */
export const FsUnwatchParams = lazySchema(() => z.object({ watchId: z.string() }));
export type FsUnwatchParams = z.infer<typeof FsUnwatchParams>;

/** A batch of paths that changed under one watch, sorted and without duplicates. */
export const FsChangedNotification = lazySchema(() => z.object({ watchId: z.string(), changedPaths: z.array(z.string()) }));
export type FsChangedNotification = z.infer<typeof FsChangedNotification>;
