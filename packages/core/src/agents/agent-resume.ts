// A tree brought back from its files: a sub-agent's place is in its header (`session_meta.source
// .subagent.thread_spawn`: parent thread, depth, path), its status in its last turn. Resuming a root
// reloads the sub-agents of its session (the index's edges); a sub-agent resumed alone keeps its
// session and path.
import { isKnownResponseItem, messageText } from '@skein/protocol';
import type { LoadedThread, ThreadSummary } from '@skein/rollout';
import { AgentInbox } from './agent-inbox.js';
import type { AgentStatus } from './agent-status.js';
import type { ChildThreadRequest } from './agent-tree.js';

/** A sub-agent's recorded place: its path, depth and parent thread. */
export interface RecordedSpawn {
  readonly path: string;
  readonly depth: number;
  readonly parentThreadId: string;
}

/** The spawn a thread's header records, if the thread is a sub-agent. */
export function recordedSpawn(meta: LoadedThread['meta']): RecordedSpawn | undefined {
  const source = meta.source;
  if (typeof source !== 'object' || source === null) return undefined;
  const spawn = (source as { subagent?: { thread_spawn?: { parent_thread_id?: unknown; depth?: unknown; agent_path?: unknown } } }).subagent?.thread_spawn;
  const { parent_thread_id: parent, depth, agent_path: path } = spawn ?? {};
  if (typeof parent !== 'string' || typeof path !== 'string' || typeof depth !== 'number') return undefined;
  return { path, depth, parentThreadId: parent };
}

/** The request that reopens a recorded sub-agent under `parentPath`. */
export function resumedChild(spawn: RecordedSpawn, parentPath: string): ChildThreadRequest {
  const taskName = spawn.path.slice(spawn.path.lastIndexOf('/') + 1);
  return {
    path: spawn.path,
    taskName,
    depth: spawn.depth,
    // The turn that spawned it is not recorded; later requests name the parent thread only.
    parent: { path: parentPath, threadId: spawn.parentThreadId, turnId: undefined, rootTurnId: undefined },
    inbox: new AgentInbox(),
    request: { taskName, message: '', forkTurns: 'none', model: undefined, reasoningEffort: undefined },
  };
}

/** How a recorded sub-agent stands: its last turn's end (a turn cut short by a crash is interrupted). */
export function recordedStatus(loaded: LoadedThread): AgentStatus {
  const last = loaded.turns.at(-1);
  if (last === undefined) return { kind: 'pendingInit' };
  if (last.status !== 'completed') return { kind: 'interrupted' };
  const answer = [...loaded.history].reverse().find((item) => isKnownResponseItem(item) && item.type === 'message' && item.role === 'assistant');
  return { kind: 'completed', answer: answer !== undefined && isKnownResponseItem(answer) && answer.type === 'message' ? messageText(answer) : null };
}

/** The sub-agents of a session in spawn order, so parents before children (thread ids are UUIDv7: they sort by creation). */
export function subagentsInOrder(threads: readonly ThreadSummary[]): ThreadSummary[] {
  return threads.filter((thread) => thread.source === 'subagent').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
