// The `skein_extension_state` line (ours, not Codex's): one change to an extension's durable thread
// store. Replaying the lines in order rebuilds the store; Codex passes over the line type.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/** Sets `key` of extension `extension_id`'s store to `value`. */
export const ExtensionStateSet = lazySchema(() => z.looseObject({
  extension_id: z.string().min(1),
  key: z.string(),
  value: z.json(),
}));

/** Removes `key` from extension `extension_id`'s store. */
export const ExtensionStateDelete = lazySchema(() => z.looseObject({
  extension_id: z.string().min(1),
  key: z.string(),
  deleted: z.literal(true),
}));

/** The payload: a set (with `value`) or a delete (`deleted: true`, no value). */
export const ExtensionState = lazySchema(() => z.union([ExtensionStateDelete, ExtensionStateSet]));
export type ExtensionState = z.infer<typeof ExtensionState>;
