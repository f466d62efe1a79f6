// What threads hear of their executors' connections: `thread/environment/disconnected` when one
// closes (the thread stays loaded), `thread/environment/connected` when it is connected again (later
// commands run on the new connection) or when one the thread selected while it was still starting
// has connected.
import type { SelectedEnvironment } from '@skein/core';
import { isStartingEnvironment } from '@skein/core';
import type { EnvironmentManager } from './environment-manager.js';

interface Broadcaster {
  broadcast(threadId: string, method: string, params: unknown): void;
}

/** A loaded thread as the notices need it. */
interface NoticedThread {
  readonly id: string;
  readonly handle: { readonly environmentIds: readonly string[]; environmentUnusable(environmentId: string): boolean };
}

/** Relays the manager's disconnects and reconnects to every loaded thread on that environment. */
export function relayConnectionNotices(manager: EnvironmentManager, threads: () => Iterable<NoticedThread>, server: Broadcaster): void {
  const tell = (method: string) => (environmentId: string) => {
    for (const thread of threads()) {
      // A thread still waiting for the environment to start is told by its own selection (announceWhenConnected).
      if (thread.handle.environmentIds.includes(environmentId) && !thread.handle.environmentUnusable(environmentId)) server.broadcast(thread.id, method, { threadId: thread.id, environmentId });
    }
  };
  manager.onDisconnected(tell('thread/environment/disconnected'));
  manager.onConnected(tell('thread/environment/connected'));
}

/** Sends the thread `thread/environment/connected` for each of `environments` still connecting, once it has connected. */
export function announceWhenConnected(server: Broadcaster, threadId: string, environments: readonly SelectedEnvironment[]): void {
  for (const environment of environments) {
    if (!isStartingEnvironment(environment)) continue;
    environment.ready.then(
      () => server.broadcast(threadId, 'thread/environment/connected', { threadId, environmentId: environment.id }),
      // A start that failed is told to the model as failed; clients get no notice of it, as with Codex.
      () => undefined,
    );
  }
}
