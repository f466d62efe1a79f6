// The `compacted` line: a compaction of the thread's history, with the history that replaces it
// and the context window it opens.
import { lazySchema, ResponseItem, isUuidV7 } from '@skein/protocol';
import * as z from 'zod';

/**
 * A compaction. `replacement_history` is the model-visible history from here on (absent in files
 * from before Codex recorded it). `window_id` is the new context window's UUIDv7; older files wrote
 * the window *number* there, which `compactionWindow` reads as such.
 */
export const Compacted = lazySchema(() => z.looseObject({
  message: z.string(),
  replacement_history: z.array(ResponseItem).nullish(),
  window_number: z.number().int().nonnegative().nullish(),
  window_id: z.union([z.string(), z.number().int().nonnegative()]).nullish(),
  first_window_id: z.string().nullish(),
  previous_window_id: z.string().nullish(),
}));
export type Compacted = z.infer<typeof Compacted>;

/** The context window a compaction opens, with legacy numeric `window_id`s read as window numbers. */
export interface CompactionWindow {
  readonly windowNumber?: number;
  readonly windowId?: string;
  readonly firstWindowId?: string;
  readonly previousWindowId?: string;
}

/** Reads a compaction's window fields, normalising the legacy numeric `window_id`. */
export function compactionWindow(compacted: Compacted): CompactionWindow {
  const legacyNumber = typeof compacted.window_id === 'number' ? compacted.window_id : undefined;
  const windowNumber = compacted.window_number ?? legacyNumber;
  const windowId = typeof compacted.window_id === 'string' ? compacted.window_id : undefined;
  return {
    ...(windowNumber === undefined ? {} : { windowNumber }),
    ...(windowId === undefined ? {} : { windowId }),
    ...(compacted.first_window_id ? { firstWindowId: compacted.first_window_id } : {}),
    ...(compacted.previous_window_id ? { previousWindowId: compacted.previous_window_id } : {}),
  };
}

/**
 * The rules a compaction Skein writes must follow on top of the schema: window ids are UUIDv7.
 * Returns the reason it fails, or undefined.
 */
export function compactedWriteProblem(compacted: Compacted): string | undefined {
  for (const key of ['window_id', 'first_window_id', 'previous_window_id'] as const) {
    const value = compacted[key];
    if (typeof value === 'number') return `${key} must be a UUIDv7 string; numeric window ids are a legacy form Skein only reads`;
    if (typeof value === 'string' && !isUuidV7(value)) return `${key} '${value}' is not a UUIDv7`;
  }
  return undefined;
}
