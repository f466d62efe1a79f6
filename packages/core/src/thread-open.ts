// What the registry works out when it opens a thread: a sub-agent's recorded source, the init data
// and workspace roots a resumed thread recorded, and where an ephemeral thread records (nowhere).
import type { Config } from '@skein/config';
import type { ThreadInit } from '@skein/extension-api';
import { capabilityRootsFromRecord, type LoadedThread, type SessionSource } from '@skein/rollout';
import { defaultWorkspaceRoots } from '@skein/sandboxing';
import type { MultiAgentMode } from './agents/agent-instructions.js';
import type { ChildThreadRequest } from './agents/agent-tree.js';
import type { ThreadRecorder } from './session/thread-recorder.js';

/** Names a sub-agent goes by besides its path (Codex gives each a person's name, picked at random; here the thread id's random bits pick it). */
const NICKNAMES = ['Ada', 'Alan', 'Barbara', 'Claude', 'Dennis', 'Donald', 'Edsger', 'Frances', 'Grace', 'James', 'John', 'Ken', 'Leslie', 'Linus', 'Margaret', 'Niklaus', 'Radia', 'Tony'] as const;

/** `session_meta`'s `thread_source`: absent when no one named the source (Codex's app-server threads). */
export function threadSourceField(threadSource: string | undefined): { readonly thread_source?: string } {
  return threadSource === undefined ? {} : { thread_source: threadSource };
}

/**
 * What a sub-agent's `session_meta` says of it, as Codex records it: the `subagent.thread_spawn`
 * source, and the parent, nickname and path again at the top level.
 */
export function subagentHeader(child: ChildThreadRequest, threadId: string): Record<string, unknown> {
  const nickname = agentNickname(threadId);
  // A v1 agent has no path (Codex records null), so a resumed session does not put it back in its tree.
  const agentPath = child.request.dialect === 'v1' ? null : child.path;
  const source: SessionSource = {
    subagent: { thread_spawn: { parent_thread_id: child.parent.threadId, depth: child.depth, agent_path: agentPath, agent_nickname: nickname, agent_role: null } },
  };
  return { source, parent_thread_id: child.parent.threadId, agent_nickname: nickname, ...(agentPath === null ? {} : { agent_path: agentPath }), multi_agent_version: child.request.dialect ?? 'v2' };
}

/** The name a sub-agent goes by besides its path or id. */
export function agentNickname(threadId: string): string {
  return NICKNAMES[Number.parseInt(threadId.slice(-4), 16) % NICKNAMES.length] ?? NICKNAMES[0];
}

/** The initialization data a thread's header recorded; a header whose roots cannot be read gives none, with a warning. */
export function recordedInit(loaded: LoadedThread, warn: (message: string) => void): ThreadInit {
  const roots = capabilityRootsFromRecord(loaded.meta.selected_capability_roots);
  if (roots.ok) return { selectedCapabilityRoots: roots.roots };
  warn(`the thread's recorded capability roots could not be read (${roots.message}); its extensions see none`);
  return { selectedCapabilityRoots: [] };
}

/**
 * Where an ephemeral thread records: nowhere. Nothing reads a thread's records back while it runs, so
 * keeping them in memory would only grow with the thread.
 */
export const discardingRecorder: ThreadRecorder = {
  recordItems: () => undefined,
  recordTurnContext: () => undefined,
  recordUserMessage: () => undefined,
  recordWorldState: () => undefined,
  recordCompaction: () => undefined,
  recordExtensionState: () => undefined,
  recordEvent: () => undefined,
  recordRealtimeItem: () => undefined,
  flush: () => Promise.resolve(),
  written: () => Promise.resolve(),
};

/**
 * The workspace roots a resumed thread's client had named, while it works in the cwd it recorded:
 * its last turn's (none recorded there: the defaults), else, before any turn, its header's unless
 * they are the defaults for that cwd. Defaults are worked out again from today's config.
 */
export function namedRootsOf(loaded: LoadedThread, config: Config): readonly string[] | undefined {
  const last = loaded.lastTurnContext;
  if (last !== undefined) return last.cwd === config.cwd ? (last.runtime_workspace_roots ?? undefined) : undefined;
  const header = loaded.meta.runtime_workspace_roots ?? undefined;
  if (header === undefined || loaded.meta.cwd !== config.cwd) return undefined;
  const defaults = defaultWorkspaceRoots(config, loaded.meta.cwd);
  return header.length === defaults.length && header.every((root, index) => root === defaults[index]) ? undefined : header;
}

/** The delegation mode a turn_context recorded (Skein records the selection as `multi_agent_mode`). */
export function recordedMultiAgentMode(turnContext: object): MultiAgentMode | undefined {
  const mode = (turnContext as { multi_agent_mode?: unknown }).multi_agent_mode;
  if (mode === 'explicitRequestOnly' || mode === 'proactive') return mode;
  if (typeof mode === 'object' && mode !== null && typeof (mode as { custom?: unknown }).custom === 'string') return { custom: (mode as { custom: string }).custom };
  return undefined;
}
