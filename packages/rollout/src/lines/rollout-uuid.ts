// Thread ids as rollout files hold them: any hyphenated UUID, since files from older Codex releases
// carry UUIDv4 ids; new threads get UUIDv7 ids (`ThreadId` from @skein/protocol).
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A thread id read from a rollout: a hyphenated UUID of any version. */
export const RolloutThreadId = lazySchema(() => z.string().regex(UUID, 'expected a UUID thread id'));
export type RolloutThreadId = z.infer<typeof RolloutThreadId>;

/** Whether `value` is a hyphenated UUID of any version. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
