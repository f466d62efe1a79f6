// Whether a thread id names a thread whose facts this server may keep beside its file (sections,
// attachments): a stored thread, or a loaded one that is not ephemeral.
import type { ThreadStore } from '@skein/rollout';
import type { ThreadHub } from './thread-hub.js';

/** `stored` for a durable thread, `ephemeral` for a loaded thread that keeps nothing, `missing` for an id nothing knows. */
export async function storedThreadState(hub: ThreadHub, store: ThreadStore, threadId: string): Promise<'stored' | 'ephemeral' | 'missing'> {
  if (hub.isLoaded(threadId)) return hub.loaded(threadId).facts.ephemeral ? 'ephemeral' : 'stored';
  return (await store.find(threadId)) === undefined ? 'missing' : 'stored';
}
