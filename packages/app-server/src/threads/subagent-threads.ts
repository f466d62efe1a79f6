// Sub-agent threads (multi-agent v2) in the app-server: no client opened them, so the hub makes
// their LiveThread when core is about to open one — its approval questions go to the clients under
// the sub-agent's own thread id — and the clients following the parent follow it too. They get the
// status, turn and item notifications of any thread, but no `thread/started` (as in Codex).
import type { ClientRequests, CoreEvent, ThreadHandle, ThreadManager, ThreadManagerOptions } from '@skein/core';
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

/** The hub's side of sub-agents: their LiveThreads, made before core opens them, and their events. */
export interface SubagentThreads {
  /** Makes the sub-agent's LiveThread and answers where its questions go. */
  clientRequests(threadId: string, parentThreadId: string, place: { readonly path: string; readonly depth: number }): ClientRequests | undefined;
  /** Routes a sub-agent's core event to its LiveThread. */
  onEvent(threadId: string, event: CoreEvent): void;
  /** Binds a sub-agent's LiveThread to its thread once the registry holds it (created or resumed). */
  attach(threadId: string): void;
}

export function subagentThreads(host: SubagentThreadsHost): SubagentThreads {
  const bind = (live: LiveThread): boolean => {
    if (live.attached) return true;
    const handle = host.handle(live.id);
    if (handle !== undefined) live.attach(handle);
    return handle !== undefined;
  };
  return {
    clientRequests(threadId, parentThreadId, place) {
      // While a root resumes, its sub-agents reopen before the hub holds the root's LiveThread: the registry has its handle.
      const parent = host.threads.get(parentThreadId);
      const config = parent?.config ?? host.handle(parentThreadId)?.config;
      if (config === undefined) return undefined;
      const live = new LiveThread(threadId, config, {
        createdAtMs: host.now(),
        ephemeral: parent?.facts.ephemeral ?? false,
        forkedFromId: null,
        originator: parent?.facts.originator ?? 'skein_app_server',
        source: { subAgent: { thread_spawn: { parent_thread_id: parentThreadId, depth: place.depth, agent_path: place.path, agent_nickname: null, agent_role: null } } },
        threadSource: 'subagent',
        name: null,
        preview: '',
      }, host.threadHost);
      host.threads.set(threadId, live);
      for (const connection of host.subscribers(parentThreadId)) host.subscribe(threadId, connection);
      return live.questions;
    },
    onEvent(threadId, event) {
      const live = host.threads.get(threadId);
      // Its opening (sessionConfigured) comes before the registry holds it; nothing in it is for clients.
      if (live === undefined || !bind(live)) return;
      live.onEvent(event);
    },
    attach(threadId) {
      const live = host.threads.get(threadId);
      if (live !== undefined) bind(live);
    },
  };
}

/** The registry options that route sub-agents' events and questions through `subagents`. */
export function subagentRegistryOptions(subagents: SubagentThreads): Pick<ThreadManagerOptions, 'onSubagentEvent' | 'subagentClientRequests'> {
  return {
    onSubagentEvent: (threadId, event) => subagents.onEvent(threadId, event),
    subagentClientRequests: (threadId, parentId, place) => subagents.clientRequests(threadId, parentId, place),
  };
}

/** Binds a sub-agent's LiveThread as soon as the registry holds its thread (a resumed one has no event yet). */
export function bindSubagentThreads(manager: ThreadManager, subagents: SubagentThreads): void {
  manager.onThreadEvent((event) => {
    if (event.type !== 'closed') subagents.attach(event.threadId);
  });
}
