// Sub-agent threads (multi-agent v2) in the app-server: no client opened them, so their LiveThread is
// made when their first turn starts, and the clients following their root follow them too. They get
// the status, turn and item notifications of any thread, but no `thread/started` (as in Codex).
import type { CoreEvent, ThreadHandle } from '@skein/core';
import type { ClientConnection } from '../method.js';
import { LiveThread, type ThreadHost } from './live-thread.js';

/** What the relay reads and changes in its hub. */
export interface SubagentThreadsHost {
  readonly threads: Map<string, LiveThread>;
  /** The loaded thread `threadId` of the registry, once it is open. */
  handle(threadId: string): ThreadHandle | undefined;
  /** The host LiveThreads report to. */
  readonly threadHost: ThreadHost;
  subscribers(threadId: string): readonly ClientConnection[];
  subscribe(threadId: string, connection: ClientConnection): boolean;
  now(): number;
}

/** Routes a sub-agent's core events to its LiveThread, making it on first sight. */
export function subagentEventRelay(host: SubagentThreadsHost): (threadId: string, event: CoreEvent) => void {
  return (threadId, event) => {
    let live = host.threads.get(threadId);
    if (live === undefined) {
      // Its opening (sessionConfigured) comes before the registry holds it; nothing in it is for clients.
      const handle = host.handle(threadId);
      if (handle === undefined) return;
      const root = host.threads.get(handle.sessionId);
      live = new LiveThread(threadId, handle.config, {
        createdAtMs: host.now(),
        ephemeral: handle.path === undefined,
        forkedFromId: null,
        originator: root?.facts.originator ?? 'skein_app_server',
        source: { subAgent: { thread_spawn: { parent_thread_id: handle.sessionId } } },
        threadSource: 'subagent',
        name: null,
        preview: '',
      }, host.threadHost);
      live.attach(handle);
      host.threads.set(threadId, live);
      for (const connection of host.subscribers(handle.sessionId)) host.subscribe(threadId, connection);
    }
    live.onEvent(event);
  };
}
