// Opaque cursors for newest-first keyset pagination: the sort key, the last row's time and id.
import * as z from 'zod';
import { RolloutError } from '../rollout-error.js';
import { lazySchema } from '@skein/protocol';

/** Which time a list is ordered by (newest first). */
export type ThreadSortKey = 'created' | 'updated';

const CursorPayload = lazySchema(() => z.object({ k: z.enum(['created', 'updated']), t: z.number().int(), id: z.string() }));

/** Where the next page starts: after the row with time `time` and id `id`. */
export interface ThreadCursor {
  readonly sortKey: ThreadSortKey;
  readonly time: number;
  readonly id: string;
}

/** Encodes a cursor as URL-safe text. */
export function encodeThreadCursor(cursor: ThreadCursor): string {
  return Buffer.from(JSON.stringify({ k: cursor.sortKey, t: cursor.time, id: cursor.id }), 'utf8').toString('base64url');
}

/** Decodes a cursor, throwing `InvalidCursor` for text this index did not issue. */
export function decodeThreadCursor(text: string): ThreadCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch (error) {
    throw new RolloutError('InvalidCursor', `cursor '${text}' is not one this index issued`, undefined, undefined, { cause: error });
  }
  const parsed = CursorPayload.safeParse(value);
  if (!parsed.success) throw new RolloutError('InvalidCursor', `cursor '${text}' is not one this index issued`);
  return { sortKey: parsed.data.k, time: parsed.data.t, id: parsed.data.id };
}
