// The Thread objects the app-server answers with, from each place a thread's facts can come from: the
// index's summary of a listed thread, a loaded thread, or a stored thread read from its file.
import type { ContextFragmentDefinition } from '@skein/extension-api';
import type { LoadedThread, ThreadSummary } from '@skein/rollout';
import type { LiveThread } from './live-thread.js';
import { previewOf } from './recorded-turns.js';
import type { WireObject } from '@skein/core';
import { threadEnvironmentEntry, threadObject } from './thread-object.js';

/** A thread `thread/list` found in the index and that is not loaded. */
export function listedThreadObject(summary: ThreadSummary, cliVersion: string): WireObject {
  return threadObject({
      id: summary.id,
      sessionId: summary.sessionId,
      forkedFromId: null,
      parentThreadId: summary.parentThreadId,
      preview: summary.title ?? '',
      ephemeral: false,
      modelProvider: summary.modelProvider ?? '',
      model: summary.model,
      reasoningEffort: null,
      createdAtMs: Date.parse(summary.createdAt),
      updatedAtMs: Date.parse(summary.updatedAt),
      status: { type: 'notLoaded' },
      path: summary.path,
      cwd: summary.cwd,
      cliVersion: cliVersion,
      originator: null,
      source: listedSource(summary.source),
      threadSource: null,
      name: null,
      environments: null,
      turns: [],
    });
}

/** A loaded thread. */
export function liveThreadObject(thread: LiveThread, turns: readonly WireObject[], cliVersion: string): WireObject {
  const { config } = thread;
  return threadObject({
      id: thread.id,
      sessionId: thread.handle.sessionId,
      forkedFromId: thread.facts.forkedFromId,
      parentThreadId: null,
      preview: thread.facts.preview,
      ephemeral: thread.facts.ephemeral,
      modelProvider: config.modelProviderId,
      model: config.model,
      reasoningEffort: config.modelReasoningEffort ?? null,
      createdAtMs: thread.facts.createdAtMs,
      updatedAtMs: thread.updatedAtMs,
      status: thread.status(),
      path: thread.handle.path ?? null,
      cwd: config.cwd,
      cliVersion: cliVersion,
      originator: thread.facts.originator,
      source: thread.facts.source,
      threadSource: thread.facts.threadSource,
      name: thread.facts.name,
      environments: thread.handle.environmentIds.map((environmentId) => threadEnvironmentEntry(environmentId, thread.handle.environmentCwd(environmentId), thread.handle.environmentWorkspaceRoots(environmentId))),
      turns,
    });
}

/** A stored thread as its file describes it; `cliVersion` stands in when the file names none. */
export function storedThreadObject(loaded: LoadedThread, turns: readonly WireObject[], cliVersion: string, contextFragments: readonly ContextFragmentDefinition[]): WireObject {
  const meta = loaded.meta;
  return threadObject({
      id: meta.id,
      sessionId: meta.session_id ?? meta.id,
      forkedFromId: meta.forked_from_id ?? null,
      parentThreadId: null,
      preview: previewOf(loaded, contextFragments),
      ephemeral: false,
      modelProvider: meta.model_provider ?? '',
      model: loaded.lastTurnContext?.model ?? null,
      reasoningEffort: null,
      createdAtMs: Date.parse(meta.timestamp),
      updatedAtMs: loaded.lastTimestamp === undefined ? Date.parse(meta.timestamp) : Date.parse(loaded.lastTimestamp),
      status: { type: 'notLoaded' },
      path: loaded.path,
      cwd: meta.cwd,
      cliVersion: meta.cli_version ?? cliVersion,
      originator: meta.originator ?? null,
      source: wireSource(meta.source),
      threadSource: meta.thread_source ?? null,
      name: loaded.threadName ?? null,
      environments: null,
      turns,
    });
}

const WIRE_SOURCES: ReadonlySet<string> = new Set(['cli', 'vscode', 'exec', 'appServer', 'unknown']);

/**
 * A recorded `session_meta.source` on the v2 wire: Codex's names as they are; a sub-agent's
 * (`{subagent: …}` in the file) as `{subAgent: …}`; anything else `unknown`.
 */
export function wireSource(source: unknown): unknown {
  if (typeof source === 'string') return WIRE_SOURCES.has(source) ? source : 'unknown';
  if (typeof source !== 'object' || source === null) return 'unknown';
  const { subagent, subAgent, custom } = source as { subagent?: unknown; subAgent?: unknown; custom?: unknown };
  if (typeof custom === 'string') return { custom };
  const spawned = subagent ?? subAgent;
  return spawned === undefined ? 'unknown' : { subAgent: spawned };
}

/** A listed thread's source from the index, which keeps its kind only: a sub-agent's spawn details are read with the thread. */
function listedSource(kind: string | null): unknown {
  if (kind === 'subagent') return { subAgent: { other: 'thread_spawn' } };
  return wireSource(kind);
}
