// The `session_meta` line: the first line of every rollout, naming the thread and where it came from.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';
import { RolloutThreadId } from './rollout-uuid.js';

/** Git facts about the thread's cwd, recorded when it is a repository. */
export const GitInfo = lazySchema(() => z.looseObject({
  commit_hash: z.string().nullish(),
  branch: z.string().nullish(),
  repository_url: z.string().nullish(),
}));
export type GitInfo = z.infer<typeof GitInfo>;

/** The base instructions the thread was started with (the first developer message the model sees). */
export const BaseInstructions = lazySchema(() => z.looseObject({ text: z.string() }));
export type BaseInstructions = z.infer<typeof BaseInstructions>;

/**
 * Where a fork's inherited history ends in its parent's file (Codex 0.171.0 forks reference the
 * parent instead of copying it): the parent's lines with `ordinal < end_ordinal_exclusive`, which
 * are the parent file's first `end_byte_offset` bytes.
 */
export const HistoryBase = lazySchema(() => z.looseObject({
  thread_id: RolloutThreadId,
  end_ordinal_exclusive: z.number().int().nonnegative(),
  end_byte_offset: z.number().int().nonnegative().nullish(),
}));
export type HistoryBase = z.infer<typeof HistoryBase>;

/**
 * Who started the thread: a name (`"exec"`, `"cli"`, `"vscode"`, `"mcp"`) or, for sub-agents, an
 * object such as `{"subagent": {"thread_spawn": {"parent_thread_id": …, "depth": 1}}}`.
 */
export const SessionSource = lazySchema(() => z.union([z.string(), z.record(z.string(), z.unknown())]));
export type SessionSource = z.infer<typeof SessionSource>;

/**
 * The `session_meta` payload. `session_id` is the root id shared by a tree of threads (missing in
 * older files: read it with `sessionIdOf`); unknown fields are kept as they came.
 */
export const SessionMeta = lazySchema(() => z.looseObject({
  session_id: RolloutThreadId.optional(),
  id: RolloutThreadId,
  forked_from_id: RolloutThreadId.nullish(),
  forked_from_ordinal_exclusive: z.number().int().nonnegative().nullish(),
  parent_thread_id: RolloutThreadId.nullish(),
  timestamp: z.string(),
  cwd: z.string(),
  /** The thread's workspace roots at its start: the cwd and the configured writable roots unless the client named others. */
  runtime_workspace_roots: z.array(z.string()).nullish(),
  originator: z.string().nullish(),
  cli_version: z.string().nullish(),
  source: SessionSource.nullish(),
  thread_source: z.string().nullish(),
  model_provider: z.string().nullish(),
  base_instructions: BaseInstructions.nullish(),
  selected_capability_roots: z.array(z.unknown()).nullish(),
  git: GitInfo.nullish(),
  /** `"paginated"` in files written by Codex 0.171.0 and Skein; absent in older files. */
  history_mode: z.string().nullish(),
  history_base: HistoryBase.nullish(),
}));
export type SessionMeta = z.infer<typeof SessionMeta>;

/** The root session id: `session_id`, or the thread's own id in files written before it existed. */
export function sessionIdOf(meta: SessionMeta): string {
  return meta.session_id ?? meta.id;
}

/**
 * The thread that spawned this one: `parent_thread_id`, or where older files kept it, inside a
 * sub-agent `source` (`{"subagent": {"thread_spawn": {"parent_thread_id": …}}}`).
 */
export function parentThreadIdOf(meta: SessionMeta): string | undefined {
  if (meta.parent_thread_id) return meta.parent_thread_id;
  const spawn = property(property(meta.source, 'subagent'), 'thread_spawn');
  const parent = property(spawn, 'parent_thread_id');
  return typeof parent === 'string' ? parent : undefined;
}

/** A short name for the source, for filters: the string itself, or an object's first key (`"subagent"`). */
export function sourceKindOf(meta: SessionMeta): string | undefined {
  const source = meta.source;
  if (source === undefined || source === null) return undefined;
  if (typeof source === 'string') return source;
  return Object.keys(source)[0];
}

function property(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
