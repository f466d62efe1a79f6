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
import { GitCheckpoints, shellRunner, type CheckpointRunner, type PathChange, type Snapshot } from './git-checkpoints.js';

/** The durable store checkpoints are kept in (an id no extension can take: extensions are named by package, and this scope is ours). */
export const CHECKPOINT_STORE_ID = '@skein/checkpoints';
const REF_ROOT = 'refs/skein/checkpoints';

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
});
export type CheckpointRecord = z.infer<typeof CheckpointRecord>;

/** The thread's durable store for checkpoint records, with its keys. */
export interface CheckpointStore extends DurableExtensionData {
  keys(): readonly string[];
}

/** How to reach an environment's machine. */
export interface CheckpointTarget {
  readonly runner: CheckpointRunner;
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

  /** Whether any turn among `turnIds` has a checkpoint. */
  covers(turnIds: readonly string[]): boolean {
    const wanted = new Set(turnIds);
    return this.#records().some((record) => wanted.has(record.turnId));
  }

  /**
   * Puts every environment's files back as they were before the first of `turnIds` (the turns being
   * dropped, oldest first) wrote; a file changed since the last of them wrote it is kept unless `force`.
   * The checkpoints of those turns are deleted afterwards; the state before the revert stays under
   * `refs/skein/checkpoints/<thread>/revert-<time>` so the revert itself can be undone by hand.
   */
  async restore(turnIds: readonly string[], options: { readonly force: boolean }): Promise<EnvironmentRestore[]> {
    const dropped = new Set(turnIds);
    const byEnvironment = new Map<string, CheckpointRecord[]>();
    for (const record of this.#records()) {
      if (!dropped.has(record.turnId)) continue;
      const list = byEnvironment.get(record.environmentId) ?? [];
      list.push(record);
      byEnvironment.set(record.environmentId, list);
    }
    const reports: EnvironmentRestore[] = [];
    for (const [environmentId, records] of byEnvironment) {
      records.sort((a, b) => a.takenAtMs - b.takenAtMs);
      reports.push(await this.#restoreEnvironment(environmentId, records, options.force));
    }
    for (const turnId of turnIds) for (const environmentId of byEnvironment.keys()) this.#options.store.delete(keyOf(turnId, environmentId));
    return reports;
  }

  /** Deletes every checkpoint ref of this thread on the attached environments (archive, delete). */
  async prune(): Promise<void> {
    const places = new Map<string, CheckpointRecord>();
    for (const record of this.#records()) places.set(`${record.environmentId}\0${record.shadowDir}`, record);
    for (const record of places.values()) {
      const target = this.#options.target(record.environmentId);
      if (target === undefined) continue;
      await new GitCheckpoints(target.runner, { shadowDir: record.shadowDir }).prune(`${REF_ROOT}/${this.#options.threadId}/`).catch((error: unknown) => this.#options.warn(`could not prune the checkpoints on '${record.environmentId}': ${(error as Error).message}`));
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
      const snapshot = await this.#snapshot(target, environmentId, `${REF_ROOT}/${this.#options.threadId}/${turnId}/${phase}`, settings, existing?.shadowDir);
      if (snapshot === undefined) return;
      if (phase === 'before' && settings.warnings) this.#warnLeftOut(environmentId, snapshot.skipped);
      const base = existing ?? { root: snapshot.root, shadowDir: snapshot.shadowDir, before: snapshot.commit, takenAtMs: this.#options.nowMs() };
      const { root, shadowDir, before, takenAtMs } = base;
      this.#options.store.set(key, { turnId, environmentId, root, shadowDir, before, takenAtMs, ...(phase === 'after' ? { after: snapshot.commit } : {}) });
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

  /** A snapshot in the work tree's own repository, else (with `mode = "on"`) in a private one; undefined when neither applies. */
  async #snapshot(target: CheckpointTarget, environmentId: string, ref: string, settings: CheckpointSettings, shadowDir: string | undefined): Promise<(Snapshot & { readonly shadowDir: string }) | undefined> {
    const options = { message: `skein checkpoint ${ref}`, prunePrefix: `${REF_ROOT}/`, nowMs: this.#options.nowMs() };
    if (shadowDir === undefined || shadowDir === '') {
      const snapshot = await new GitCheckpoints(target.runner, { shadowDir: '' }).snapshot(ref, settings, options);
      if ('commit' in snapshot) return { ...snapshot, shadowDir: '' };
      if (settings.mode !== 'on' || shadowDir === '') return undefined;
    }
    const shadow = shadowDir ?? this.#shadowDirOf(environmentId);
    const snapshot = await new GitCheckpoints(target.runner, { shadowDir: shadow }).snapshot(ref, settings, options);
    if ('commit' in snapshot) return { ...snapshot, shadowDir: shadow };
    if (settings.warnings) this.#options.warn(`no checkpoint of '${environmentId}' this turn: ${snapshot.unavailable}`);
    return undefined;
  }

  /** This machine keeps them in `$CODEX_HOME/checkpoints`; an executor in its user's `~/.skein/checkpoints`. */
  #shadowDirOf(environmentId: string): string {
    const name = createHash('sha256').update(this.#options.cwdOf(environmentId)).digest('hex').slice(0, 24);
    return environmentId === LOCAL_ENVIRONMENT_ID ? path.join(this.#options.homeDir(), 'checkpoints', `${name}.git`) : `~/.skein/checkpoints/${name}.git`;
  }

  async #restoreEnvironment(environmentId: string, records: readonly CheckpointRecord[], force: boolean): Promise<EnvironmentRestore> {
    const first = records[0] as CheckpointRecord;
    const empty = { environmentId, root: first.root, restored: [], conflicts: [], failed: [] };
    const target = this.#options.target(environmentId);
    if (target === undefined) return { ...empty, error: `the environment '${environmentId}' is not attached to this thread` };
    const git = new GitCheckpoints(target.runner, { shadowDir: first.shadowDir });
    const native = (file: string) => joinNative(first.root, file);
    try {
      const now = await git.snapshot(`${REF_ROOT}/${this.#options.threadId}/revert-${this.#options.nowMs()}`, this.#options.settings(), { message: 'skein: before a revert', prunePrefix: '', nowMs: this.#options.nowMs() });
      if (!('commit' in now)) return { ...empty, error: now.unavailable };
      // Each file the turns wrote, and the state the last of them left it in.
      const expected = new Map<string, string>();
      for (const record of records) {
        const after = record.after ?? now.commit;
        for (const file of (await git.changes(record.before, after)).keys()) expected.set(file, after);
      }
      const conflicts = new Set<string>();
      for (const after of new Set(expected.values())) {
        if (after === now.commit) continue;
        const since = await git.changes(after, now.commit, [...expected].filter(([, commit]) => commit === after).map(([file]) => file));
        for (const file of since.keys()) conflicts.add(file);
      }
      const restoring = [...expected.keys()].filter((file) => force || !conflicts.has(file));
      const changes = restoring.length === 0 ? new Map<string, PathChange>() : await git.changes(now.commit, first.before, restoring);
      const diffs = await git.patches(now.commit, first.before, [...changes.keys()]);
      const write = [...changes].filter(([, change]) => change !== 'D').map(([file]) => file);
      const remove = [...changes].filter(([, change]) => change === 'D').map(([file]) => file);
      const failed = await git.restore(first.before, write, remove);
      await git.prune(`${REF_ROOT}/${this.#options.threadId}/${first.turnId}/`);
      for (const record of records.slice(1)) await git.prune(`${REF_ROOT}/${this.#options.threadId}/${record.turnId}/`);
      const kindOf = (change: PathChange): RestoredFile['kind'] => (change === 'D' ? 'delete' : change === 'A' ? 'add' : 'update');
      return {
        environmentId,
        root: first.root,
        restored: [...changes].filter(([file]) => !failed.includes(file)).map(([file, change]) => ({ path: native(file), kind: kindOf(change), diff: diffs.get(file) ?? '' })),
        conflicts: force ? [] : [...conflicts].filter((file) => expected.has(file)).map(native),
        failed: failed.map(native),
        error: undefined,
      };
    } catch (error) {
      return { ...empty, error: (error as Error).message };
    }
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

function keyOf(turnId: string, environmentId: string): string {
  return `${turnId}/${environmentId}`;
}

/** `root` and a path from it, in the root's own spelling (an executor may be Windows). */
function joinNative(root: string, file: string): string {
  const separator = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  return `${root.replace(/[\\/]+$/, '')}${separator}${separator === '/' ? file : file.replaceAll('/', '\\')}`;
}
