// The shapes an agent tree is made of: its agents, their parents and limits, and what a spawn asks
// the registry for.
import type { ThreadHandle } from '../thread-handle.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { AgentInbox } from './agent-inbox.js';
import type { AgentStatus, AgentStatusWire } from './agent-status.js';

/** The root agent's path. */
export const ROOT_AGENT_PATH = '/root';
/** How far a tree may grow. */
export interface AgentLimits {
  /** Levels of sub-agents below the root (`[agents] max_depth`). */
  readonly maxDepth: number;
  /** Sub-agents working at once in the session. */
  readonly maxConcurrent: number;
  /** How long one sub-agent turn may run before it is stopped and the agent errored (`[agents] job_max_runtime_seconds`). */
  readonly maxRuntimeMs?: number | undefined;
}

/** A spawned agent's parent: its thread and path, and the turn that spawned it (unknown for a tree resumed from its files). */
export interface AgentParent {
  readonly path: string;
  readonly threadId: string;
  readonly turnId: string | undefined;
  /** The turn the parent's turn chain started from (the root's user turn). */
  readonly rootTurnId: string | undefined;
}

/** One agent of the tree. */
export interface AgentNode {
  readonly path: string;
  readonly threadId: string;
  /** 0 for the root. */
  readonly depth: number;
  readonly inbox: AgentInbox;
  readonly parent: AgentParent | undefined;
  status: AgentStatus;
  /** The loaded thread (undefined while a sub-agent's thread is being opened). */
  handle: ThreadHandle | undefined;
  /** Tells the parent's clients what this sub-agent did (its end); undefined for the root and a resumed sub-agent. */
  readonly tellParent?: ((event: CoreEvent) => void) | undefined;
  /** `v1` for an agent spawned by the multi_agent_v1 tools. */
  readonly dialect?: 'v1' | undefined;
}

/** What `spawn_agent` asks for. */
export interface SpawnRequest {
  readonly taskName: string;
  readonly message: string;
  readonly forkTurns: 'all' | 'none';
  readonly model: string | undefined;
  readonly reasoningEffort: string | undefined;
  /** `v1`: the task goes in as a user message, and the agent is named by its thread id. */
  readonly dialect?: 'v1' | undefined;
}

/** What the registry needs to open a sub-agent's thread. */
export interface ChildThreadRequest {
  readonly path: string;
  readonly taskName: string;
  readonly depth: number;
  readonly parent: AgentParent;
  readonly inbox: AgentInbox;
  readonly request: SpawnRequest;
}

/** Opens a sub-agent's thread in the registry (its own id and rollout, the root's session). */
export type OpenChildThread = (child: ChildThreadRequest) => Promise<ThreadHandle>;

/** One row of `list_agents`. */
export interface AgentListing {
  readonly agent_name: string;
  readonly agent_status: AgentStatusWire;
}
