// The agent trees of one thread registry, one per session: which threads take part, and what each
// gets from its tree when it opens — its inbox (a before-sampling hook), the `collaboration` tools,
// and its place for request metadata. A root joins a tree when multi-agent v2 is on for it (the
// `multi_agent_v2` feature, or a model the catalog trains on v2), or, for other models, with the
// `multi_agent` feature (v1: the `multi_agent_v1` tools, deferred); its sub-agents always belong to it.
import type { Config } from '@skein/config';
import type { NamespaceToolHandler } from '@skein/extension-api';
import type { ResponseItem, UuidV7Source } from '@skein/protocol';
import { agentRoleMessage } from './agent-instructions.js';
import { findModelInfo } from '../model/model-catalog.js';
import type { AgentPlace } from '../session/turn-requests.js';
import type { ThreadHandle } from '../thread-handle.js';
import { collaborationTools } from '../tools/collaboration/collaboration-tools.js';
import { multiAgentV1Tools } from '../tools/collaboration/multi-agent-v1-tools.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { TurnHooks } from '../turn/turn-hooks.js';
import type { LoadedThread } from '@skein/rollout';
import { recordedSpawn, recordedStatus, resumedChild } from './agent-resume.js';
import { AgentTree, ROOT_AGENT_PATH, type ChildThreadRequest } from './agent-tree.js';

/** What a thread gets from its tree. */
export interface ThreadAgentWiring {
  readonly hooks: Partial<TurnHooks>;
  readonly place: AgentPlace;
  /** The message that tells the agent its role (its initial context; the mode message follows it); v1 agents get none. */
  readonly role: ((config: Config) => ResponseItem) | undefined;
  /** The thread's turn was interrupted: so are the turns of the sub-agents it spawned. */
  readonly onInterrupt: () => void;
  readonly collaboration: ((binding: CollaborationToolsBinding) => NamespaceToolHandler) | undefined;
}

/** What a thread binds its collaboration tools to. */
export interface CollaborationToolsBinding {
  readonly emit: (event: CoreEvent) => void;
  readonly now: () => number;
  /** The thread's model and reasoning effort now. */
  readonly settings: () => { readonly model: string; readonly reasoningEffort: string | undefined };
}

/** Opens a sub-agent's thread in the registry, in session `sessionId`. */
export type OpenChildInSession = (child: ChildThreadRequest, sessionId: string) => Promise<ThreadHandle>;

export class AgentRegistry {
  readonly #trees = new Map<string, AgentTree>();
  readonly #openChild: OpenChildInSession;
  readonly #uuid: UuidV7Source | undefined;
  readonly #now: () => number;

  constructor(options: { readonly openChild: OpenChildInSession; readonly now: () => number; readonly uuid?: UuidV7Source }) {
    this.#openChild = options.openChild;
    this.#now = options.now;
    this.#uuid = options.uuid;
  }

  /** The tree of session `sessionId`, if it has one. */
  tree(sessionId: string): AgentTree | undefined {
    return this.#trees.get(sessionId);
  }

  /** Wires a thread that is opening into its session's tree; undefined when it takes no part. */
  join(thread: { readonly threadId: string; readonly sessionId: string; readonly config: Config; readonly child: ChildThreadRequest | undefined }): ThreadAgentWiring | undefined {
    const { threadId, sessionId, config, child } = thread;
    const v1 = child === undefined ? usesV1(config) : child.request.dialect === 'v1';
    if (v1) return this.#joinV1(thread);
    const trainedOnV2 = findModelInfo(config.model).multiAgentVersion === 'v2';
    // A sub-agent of a model not trained on the tools (gpt-5.5 with the feature on) gets none, as in Codex.
    const offersTools = child === undefined ? trainedOnV2 || config.features.isEnabled('multi_agent_v2') : trainedOnV2;
    if (child === undefined && (!offersTools || sessionId !== threadId)) return undefined;
    const tree = this.#treeFor(sessionId, config);
    const inbox = child?.inbox ?? tree.addRoot(threadId).inbox;
    const place: AgentPlace = child === undefined ? { path: ROOT_AGENT_PATH } : { path: child.path, parent: child.parent };
    return {
      hooks: { beforeSampling: [inbox] },
      place,
      onInterrupt: () => tree.interruptChildren(threadId),
      role: (current) => agentRoleMessage({ place, maxConcurrent: current.agents.maxConcurrentThreads, canDelegate: offersTools, tagged: findModelInfo(current.model).multiAgentVersion === 'v2' }),
      collaboration: offersTools ? ({ emit, now }) => collaborationTools({ tree, caller: () => tree.nodeOfThread(threadId), emit, now }) : undefined,
    };
  }

  /** Multi-agent v1: the root gets the deferred `multi_agent_v1` tools and no role message; its sub-agents get neither. */
  #joinV1(thread: { readonly threadId: string; readonly sessionId: string; readonly config: Config; readonly child: ChildThreadRequest | undefined }): ThreadAgentWiring | undefined {
    const { threadId, sessionId, config, child } = thread;
    if (child === undefined && sessionId !== threadId) return undefined;
    const tree = this.#treeFor(sessionId, config);
    const inbox = child?.inbox ?? tree.addRoot(threadId).inbox;
    // Codex names every v1 agent `/root` in its requests; the parent's ids still tell them apart.
    const place: AgentPlace = child === undefined ? { path: ROOT_AGENT_PATH } : { path: ROOT_AGENT_PATH, parent: child.parent };
    return {
      hooks: { beforeSampling: [inbox] },
      place,
      onInterrupt: () => tree.interruptChildren(threadId),
      role: undefined,
      collaboration: child === undefined ? ({ emit, now, settings }) => multiAgentV1Tools({ tree, caller: () => tree.nodeOfThread(threadId), emit, now, settings }) : undefined,
    };
  }

  /**
   * A thread being resumed that its header names a sub-agent: put back in its session's tree (its
   * status from its last turn), and the request that reopens it as one. Undefined for other threads.
   */
  rejoin(loaded: LoadedThread, config: Config): ChildThreadRequest | undefined {
    const spawn = recordedSpawn(loaded.meta);
    if (spawn === undefined) return undefined;
    const sessionId = loaded.meta.session_id ?? loaded.meta.id;
    const tree = this.#treeFor(sessionId, config);
    const parentPath = tree.nodeOfThread(spawn.parentThreadId)?.path ?? spawn.path.slice(0, spawn.path.lastIndexOf('/'));
    const child = resumedChild(spawn, parentPath);
    tree.adopt(child, loaded.meta.id, recordedStatus(loaded));
    return child;
  }

  /** A closed root takes its sub-agents with it: their turns stop and their files close. */
  async closed(threadId: string): Promise<void> {
    const tree = this.#trees.get(threadId);
    if (tree === undefined) return;
    this.#trees.delete(threadId);
    await Promise.all(tree.nodes.flatMap((node) => (node.depth > 0 && node.handle !== undefined ? [node.handle.close()] : [])));
  }

  #treeFor(sessionId: string, config: Config): AgentTree {
    let tree = this.#trees.get(sessionId);
    if (tree === undefined) {
      tree = new AgentTree({
        limits: {
          maxDepth: config.agents.maxDepth,
          maxConcurrent: config.agents.maxConcurrentThreads,
          ...(config.agents.jobMaxRuntimeSeconds === undefined ? {} : { maxRuntimeMs: config.agents.jobMaxRuntimeSeconds * 1000 }),
        },
        openChild: (child) => this.#openChild(child, sessionId),
        now: this.#now,
        ...(this.#uuid === undefined ? {} : { uuid: this.#uuid }),
      });
      this.#trees.set(sessionId, tree);
    }
    return tree;
  }
}

/** Whether a root under `config` gets multi-agent v1: a model not trained on v2, v2 off, `multi_agent` on. */
function usesV1(config: Config): boolean {
  const version = findModelInfo(config.model).multiAgentVersion;
  return version !== 'v2' && !config.features.isEnabled('multi_agent_v2') && config.features.isEnabled('multi_agent');
}
