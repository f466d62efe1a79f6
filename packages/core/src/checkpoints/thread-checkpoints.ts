// A thread's checkpoints: before a turn first runs a tool that may write on an environment, that
// environment's workspace is snapshotted (once per turn and environment); when the turn ends, again.
// The records live in the thread's durable store (a rollout line each), so a rollback drops them with
// their turns and a resume finds them. A revert puts back, per environment, every file the dropped
// turns changed, unless the user changed it since: that file is reported and kept.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { LOCAL_ENVIRONMENT_ID, type CheckpointSettings } from '@skein/config';
import type { DurableExtensionData, JsonValue } from '@skein/extension-api';
import * as z from 'zod';
import type { ExecutorProcesses } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { captureCommand } from '../session/command-capture.js';
import { restoreWorkspace } from './checkpoint-restore.js';
import { GitCheckpoints, shellRunner, type CheckpointRunner, type Snapshot } from './git-checkpoints.js';

/** The durable store checkpoints are kept in (an id no extension can take: extensions are named by package, and this scope is ours). */
export const CHECKPOINT_STORE_ID = '@skein/checkpoints';
const REF_ROOT = 'refs/skein/checkpoints';
/** Left-out entries a record keeps (a thread's durable store holds each record in full). */
const MAX_RECORDED_LEFT_OUT = 1000;

/** One environment's checkpoint around one turn. */
export const CheckpointRecord = z.object({
  turnId: z.string(),
  environmentId: z.string(),
  /** The work tree's root on that machine (native). */
  root: z.string(),
  /** The private repository of a folder outside git; empty in a git work tree. */
  shadowDir: z.string(),
  before: z.string(),
  /** The snapshot when the turn ended; absent while it runs, or when it ended without one. */
  after: z.string().optional(),
  /** When the checkpoint was taken (ms since the epoch): the order turns wrote in. */
  takenAtMs: z.number(),
  /** What the opening snapshot left out (over its caps): a revert never deletes these. */
  leftOut: z.array(z.string()).optional(),
  /** More was left out than {@link MAX_RECORDED_LEFT_OUT} entries: a revert deletes nothing untracked. */
  leftOutTruncated: z.boolean().optional(),
});
export type CheckpointRecord = z.infer<typeof CheckpointRecord>;

/** The thread's durable store for checkpoint records, with its keys. */
export interface CheckpointStore extends DurableExtensionData {
  keys(): readonly string[];
}

/** How to reach an environment's machine. */
export interface CheckpointTarget {
  /** Runs scripts in `cwd` (native), or in the environment's cwd when none is given. */
  runnerAt(cwd?: string): CheckpointRunner;
}

/** What a thread's checkpoints need from their session. */
export interface ThreadCheckpointsOptions {
  readonly threadId: string;
  readonly store: CheckpointStore;
  readonly settings: () => CheckpointSettings;
  /** The runner of attached environment `environmentId` (undefined when it is not attached). */
  readonly target: (environmentId: string) => CheckpointTarget | undefined;
  /** `$CODEX_HOME`, where this machine keeps private repositories of folders outside git. */
  readonly homeDir: () => string;
  /** The cwd turns use on `environmentId` (native), to name its private repository. */
  readonly cwdOf: (environmentId: string) => string;
  readonly nowMs: () => number;
  readonly warn: (message: string) => void;
}

/** One file a revert put back (or would have, for a conflict), as a native path. */
export interface RestoredFile {
  readonly path: string;
  readonly kind: 'add' | 'update' | 'delete';
  readonly diff: string;
}

/** What a revert did on one environment. */
export interface EnvironmentRestore {
  readonly environmentId: string;
  readonly root: string;
  readonly restored: readonly RestoredFile[];
  /** Files changed since the turn that wrote them (by the user, say): kept as they are. */
  readonly conflicts: readonly string[];
  /** Files it could not write or delete. */
  readonly failed: readonly string[];
  /** Why this environment's files were not restored at all (it is not attached, git failed). */
  readonly error: string | undefined;
}

/** The checkpoints of one thread. */
export class ThreadCheckpoints {
  readonly #options: ThreadCheckpointsOptions;
  /** Left-out entries already told, per environment. */
  readonly #warned = new Set<string>();

  constructor(options: ThreadCheckpointsOptions) {
    this.#options = options;
  }

  /** The checkpoints of the turn `turnId`: taken on first write, finished when it ends. */
  forTurn(turnId: string): TurnCheckpoints {
    return new TurnCheckpoints(this, turnId);
  }

  /**
   * Puts every environment's files back as they were before the first of `turnIds` (the turns being
   * dropped, oldest first) wrote; a file changed since the last of them wrote it is kept unless `force`.
   * The checkpoints of those turns are deleted afterwards; the state before the revert stays under
   * `refs/skein/checkpoints/<thread>/revert-<time>` so the revert itself can be undone by hand.
   */
  async restore(turnIds: readonly string[], options: { readonly force: boolean }): Promise<EnvironmentRestore[]> {
    const reports: EnvironmentRestore[] = [];
    for (const records of this.#workspacesOf(turnIds)) {
      const first = records[0] as CheckpointRecord;
      const target = this.#options.target(first.environmentId);
      if (target === undefined) {
        reports.push({ environmentId: first.environmentId, root: first.root, restored: [], conflicts: [], failed: [], error: `the environment '${first.environmentId}' is not attached to this thread` });
        continue;
      }
      const git = new GitCheckpoints(target.runnerAt(first.root), { shadowDir: first.shadowDir });
      const nowMs = this.#options.nowMs();
      const restored = await restoreWorkspace(git, {
        records,
        force: options.force,
        settings: this.#options.settings(),
        revertRef: `${REF_ROOT}/${this.#options.threadId}/revert-${nowMs}`,
        turnRefPrefix: (turnId) => `${REF_ROOT}/${this.#options.threadId}/${turnId}/`,
        nowMs,
      }).catch((error: unknown) => ({ root: first.root, restored: [], conflicts: [], failed: [], error: (error as Error).message }));
      reports.push({ environmentId: first.environmentId, ...restored });
    }
    this.#forgetRecords(turnIds);
    return reports;
  }

  /** Drops the records of `turnIds` and deletes their refs, leaving the files as they are (a revert that keeps them). */
  async forget(turnIds: readonly string[]): Promise<void> {
    for (const records of this.#workspacesOf(turnIds)) {
      const first = records[0] as CheckpointRecord;
      const target = this.#options.target(first.environmentId);
      if (target === undefined) continue;
      const git = new GitCheckpoints(target.runnerAt(first.root), { shadowDir: first.shadowDir });
      for (const record of records) await git.prune(`${REF_ROOT}/${this.#options.threadId}/${record.turnId}/`).catch((error: unknown) => this.#options.warn(`could not delete the checkpoints of turn ${record.turnId} on '${first.environmentId}': ${(error as Error).message}`));
    }
    this.#forgetRecords(turnIds);
  }

  /** The records of `turnIds`, one list per workspace (environment, root and repository), oldest first. */
  #workspacesOf(turnIds: readonly string[]): CheckpointRecord[][] {
    const dropped = new Set(turnIds);
    const workspaces = new Map<string, CheckpointRecord[]>();
    for (const record of this.#records()) {
      if (!dropped.has(record.turnId)) continue;
      const key = `${record.environmentId}\0${record.root}\0${record.shadowDir}`;
      workspaces.set(key, [...(workspaces.get(key) ?? []), record]);
    }
    return [...workspaces.values()].map((records) => records.sort((a, b) => a.takenAtMs - b.takenAtMs));
  }

  #forgetRecords(turnIds: readonly string[]): void {
    const dropped = new Set(turnIds);
    for (const record of this.#records()) if (dropped.has(record.turnId)) this.#options.store.delete(keyOf(record.turnId, record.environmentId));
  }

  /** Deletes every checkpoint ref of this thread on the attached environments (archive, delete). */
  async prune(): Promise<void> {
    const places = new Map<string, CheckpointRecord>();
    for (const record of this.#records()) places.set(`${record.environmentId}\0${record.root}\0${record.shadowDir}`, record);
    for (const record of places.values()) {
      const target = this.#options.target(record.environmentId);
      if (target === undefined) continue;
      await new GitCheckpoints(target.runnerAt(record.root), { shadowDir: record.shadowDir }).prune(`${REF_ROOT}/${this.#options.threadId}/`).catch((error: unknown) => this.#options.warn(`could not prune the checkpoints on '${record.environmentId}': ${(error as Error).message}`));
    }
  }

  /** Snapshots `environmentId` for `turnId` (phase `before` or `after`); records it; never throws. */
  async take(turnId: string, environmentId: string, phase: 'before' | 'after'): Promise<void> {
    const settings = this.#options.settings();
    if (settings.mode === 'off') return;
    const target = this.#options.target(environmentId);
    if (target === undefined) return;
    const key = keyOf(turnId, environmentId);
    const existing = this.#options.store.get(key, CheckpointRecord);
    if (phase === 'after' && existing === undefined) return;
    try {
      const snapshot = await this.#snapshot(target, environmentId, `${REF_ROOT}/${this.#options.threadId}/${turnId}/${phase}`, settings, existing);
      if (snapshot === undefined) return;
      if (existing !== undefined) {
        // The closing snapshot is of the workspace the opening one was.
        if (snapshot.root === existing.root) this.#options.store.set(key, asJson({ ...existing, after: snapshot.commit }));
        return;
      }
      if (settings.warnings) this.#warnLeftOut(environmentId, snapshot.skipped);
      const leftOut = [...snapshot.skipped, ...snapshot.skippedIgnored];
      this.#options.store.set(key, {
        turnId,
        environmentId,
        root: snapshot.root,
        shadowDir: snapshot.shadowDir,
        before: snapshot.commit,
        takenAtMs: this.#options.nowMs(),
        ...(leftOut.length === 0 ? {} : { leftOut: leftOut.slice(0, MAX_RECORDED_LEFT_OUT) }),
        ...(leftOut.length > MAX_RECORDED_LEFT_OUT ? { leftOutTruncated: true } : {}),
      });
    } catch (error) {
      this.#options.warn(`could not checkpoint the files on '${environmentId}' ${phase} this turn: ${(error as Error).message}`);
    }
  }

  /**
   * Untracked entries a checkpoint left out are told once per thread (each turn would leave them out
   * again); ignored ones are not: build output and dependencies are expected to be left out.
   */
  #warnLeftOut(environmentId: string, skipped: readonly string[]): void {
    const fresh = skipped.filter((entry) => !this.#warned.has(`${environmentId}\0${entry}`));
    if (fresh.length === 0) return;
    for (const entry of fresh) this.#warned.add(`${environmentId}\0${entry}`);
    const shown = fresh.slice(0, 5).join(', ');
    this.#options.warn(`checkpoints on '${environmentId}' leave out ${fresh.length} untracked ${fresh.length === 1 ? 'entry' : 'entries'} over their size limits (${shown}${fresh.length > 5 ? ', …' : ''}); a revert cannot restore ${fresh.length === 1 ? 'it' : 'them'}`);
  }

  /**
   * A snapshot in the work tree's own repository, else (with `mode = "on"`) in a private one;
   * undefined when neither applies. A closing snapshot goes where the opening one went.
   */
  async #snapshot(target: CheckpointTarget, environmentId: string, ref: string, settings: CheckpointSettings, opening: CheckpointRecord | undefined): Promise<(Snapshot & { readonly shadowDir: string }) | undefined> {
    const options = { message: `skein checkpoint ${ref}`, prunePrefix: `${REF_ROOT}/`, nowMs: this.#options.nowMs() };
    if (opening !== undefined) {
      const snapshot = await new GitCheckpoints(target.runnerAt(opening.root), { shadowDir: opening.shadowDir }).snapshot(ref, settings, options);
      return 'commit' in snapshot ? { ...snapshot, shadowDir: opening.shadowDir } : undefined;
    }
    const inGit = await new GitCheckpoints(target.runnerAt(), { shadowDir: '' }).snapshot(ref, settings, options);
    if ('commit' in inGit) return { ...inGit, shadowDir: '' };
    if (settings.mode !== 'on') return undefined;
    const shadow = this.#shadowDirOf(environmentId);
    const snapshot = await new GitCheckpoints(target.runnerAt(), { shadowDir: shadow }).snapshot(ref, settings, options);
    if ('commit' in snapshot) return { ...snapshot, shadowDir: shadow };
    // Told once per thread: each turn would say it again.
    if (settings.warnings && !this.#warned.has(`${environmentId}\0unavailable`)) {
      this.#warned.add(`${environmentId}\0unavailable`);
      this.#options.warn(`no checkpoints of '${environmentId}': ${snapshot.unavailable}`);
    }
    return undefined;
  }

  /**
   * This machine keeps them in `$CODEX_HOME/checkpoints`; an executor in its user's
   * `~/.codex/skein-checkpoints`. Both are in a `.codex` folder, which the sandbox keeps read-only to
   * the model's commands even inside a writable root: its config could name programs git runs.
   */
  #shadowDirOf(environmentId: string): string {
    const name = createHash('sha256').update(this.#options.cwdOf(environmentId)).digest('hex').slice(0, 24);
    return environmentId === LOCAL_ENVIRONMENT_ID ? path.join(this.#options.homeDir(), 'checkpoints', `${name}.git`) : `~/.codex/skein-checkpoints/${name}.git`;
  }

  #records(): CheckpointRecord[] {
    const records: CheckpointRecord[] = [];
    for (const key of this.#options.store.keys()) {
      const parsed = CheckpointRecord.safeParse(this.#options.store.get(key));
      if (parsed.success) records.push(parsed.data);
    }
    return records;
  }
}

/** The checkpoints of one turn. */
export class TurnCheckpoints {
  readonly #thread: ThreadCheckpoints;
  readonly #turnId: string;
  readonly #taken = new Map<string, Promise<void>>();

  constructor(thread: ThreadCheckpoints, turnId: string) {
    this.#thread = thread;
    this.#turnId = turnId;
  }

  /** Takes the environment's checkpoint before the turn's first write there (concurrent callers share it). */
  beforeWrite(environmentId: string): Promise<void> {
    let taken = this.#taken.get(environmentId);
    if (taken === undefined) this.#taken.set(environmentId, (taken = this.#thread.take(this.#turnId, environmentId, 'before')));
    return taken;
  }

  /** Snapshots every environment the turn checkpointed, as the turn leaves it (once). */
  async finish(): Promise<void> {
    const taken = [...this.#taken];
    this.#taken.clear();
    for (const [environmentId, before] of taken) {
      await before;
      await this.#thread.take(this.#turnId, environmentId, 'after');
    }
  }
}

/**
 * Deletes the checkpoints a thread that is not loaded left on this machine (archive and delete of a
 * stored thread), from the records its file holds; an executor's are left to its age pruning.
 * Returns how many repositories were pruned.
 */
export async function pruneLocalCheckpoints(
  threadId: string,
  recorded: readonly { readonly extensionId: string; readonly value: unknown }[],
  host: HostCommands,
): Promise<number> {
  const places = new Map<string, CheckpointRecord>();
  for (const record of localRecords(recorded)) places.set(`${record.root}\0${record.shadowDir}`, record);
  for (const record of places.values()) await localCheckpoints(record, host).prune(`${REF_ROOT}/${threadId}/`);
  return places.size;
}

/** The checkpoint records of this machine among a thread file's durable stores. */
export function localRecords(recorded: readonly { readonly extensionId: string; readonly value: unknown }[]): CheckpointRecord[] {
  return recorded.flatMap((entry) => {
    if (entry.extensionId !== CHECKPOINT_STORE_ID) return [];
    const record = CheckpointRecord.safeParse(entry.value);
    return record.success && record.data.environmentId === LOCAL_ENVIRONMENT_ID ? [record.data] : [];
  });
}

/** What the host runs its own commands on this machine with. */
export interface HostCommands {
  readonly processes: ExecutorProcesses;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
}

/** The checkpoint operations of `record`'s repository on this machine. */
export function localCheckpoints(record: CheckpointRecord, host: HostCommands): GitCheckpoints {
  const env = Object.fromEntries(Object.entries(host.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const target = { processes: host.processes, cwd: PathUri.fromNativePath(record.root, 'posix'), env, sandbox: null, now: host.now };
  return new GitCheckpoints(shellRunner((argv, options) => captureCommand(target, argv, options)), { shadowDir: record.shadowDir });
}

/** A store that lives as long as the session (an ephemeral thread's, or a host that gave none). */
export function memoryCheckpointStore(): CheckpointStore {
  const values = new Map<string, JsonValue>();
  return {
    get: <T>(key: string, schema?: z.ZodType<T>): T | undefined => {
      const value = values.get(key);
      return value === undefined ? undefined : schema === undefined ? (value as T) : schema.parse(value);
    },
    set: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
    keys: () => [...values.keys()],
  };
}

/** A record as the store keeps it (absent fields left out, as JSON would). */
function asJson(record: CheckpointRecord): JsonValue {
  return JSON.parse(JSON.stringify(record)) as JsonValue;
}

function keyOf(turnId: string, environmentId: string): string {
  return `${turnId}/${environmentId}`;
}

