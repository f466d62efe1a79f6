// The `realtime_item` line: one item of a realtime conversation held beside the thread (a session's
// start and end, a transcript frame, an accepted handoff). `thread/realtime/list` pages them by their
// line's position; the model never sees them.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/** The envelope every realtime item has; the rest depends on `type` and is kept as written. */
export const RealtimeItem = lazySchema(() => z.looseObject({
  id: z.string().min(1),
  realtime_session_id: z.string().min(1),
  observed_at_ms: z.number().int().nullish(),
  /** `realtime_session_started`, `frame`, `realtime_session_closed`, `turn_input_accepted`, … (snake_case). */
  type: z.string().min(1),
}));
export type RealtimeItem = z.infer<typeof RealtimeItem>;
