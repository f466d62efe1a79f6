// Host skills are scanned once per set of roots and kept as an immutable snapshot, shared by every
// thread and by `skills/list`. A file watcher drops a snapshot when anything under its roots changes
// (and tells listeners, for `skills/changed`); a root's own mtime is also checked on each read, so a
// folder dropped in just before a turn is seen even if the watcher has not reported yet.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { Skill, SkillProblem } from '../skill.js';
import type { HostSkillRoot } from './host-roots.js';
import { MAX_SCAN_DEPTH, scanHostRoot } from './scan-host-root.js';
import { SkillMetadataStore } from './skill-metadata-store.js';

/** The skills of one root set, frozen. */
export interface HostSkillSnapshot {
  readonly roots: readonly HostSkillRoot[];
  /** In root order; a name found twice keeps its first (highest-precedence) skill. */
  readonly skills: readonly Skill[];
  readonly problems: readonly SkillProblem[];
}

interface CacheEntry {
  readonly snapshot: Promise<HostSkillSnapshot>;
  readonly rootMtimes: Promise<readonly (number | undefined)[]>;
}

/** Snapshots by root set, invalidated by a watcher. */
export class HostSkillCache {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #listeners = new Set<() => void>();
  readonly #watched = new Set<string>();
  #watcher: FSWatcher | undefined;
  #closed = false;
  readonly #watch: boolean;
  readonly #metadata: SkillMetadataStore | undefined;

  /**
   * `watch: false` leaves out the file watcher (one-shot hosts such as `skein exec`); `metadata` (or
   * a store on `metadataFile`) keeps what each SKILL.md said across processes (see
   * skill-metadata-store.ts).
   */
  constructor(options: { readonly watch?: boolean; readonly metadataFile?: string; readonly metadata?: SkillMetadataStore } = {}) {
    this.#watch = options.watch ?? true;
    this.#metadata = options.metadata ?? (options.metadataFile === undefined ? undefined : new SkillMetadataStore(options.metadataFile));
  }

  /** The snapshot for `roots`, scanned when there is none or it may be stale (`forceReload`). */
  async snapshot(roots: readonly HostSkillRoot[], options: { readonly forceReload?: boolean } = {}): Promise<HostSkillSnapshot> {
    const key = JSON.stringify(roots);
    const existing = this.#entries.get(key);
    const mtimes = rootMtimes(roots);
    if (existing !== undefined && options.forceReload !== true && sameMtimes(await existing.rootMtimes, await mtimes)) return existing.snapshot;
    const entry: CacheEntry = { rootMtimes: mtimes, snapshot: scanAll(roots, this.#metadata) };
    this.#entries.set(key, entry);
    entry.snapshot.catch(() => this.#entries.delete(key));
    await this.#watchRoots(roots);
    return entry.snapshot;
  }

  /** Calls `listener` after a change under any watched root; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Drops every snapshot (a config change, say). */
  invalidate(): void {
    this.#entries.clear();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#watcher?.close();
    this.#watcher = undefined;
  }

  async #watchRoots(roots: readonly HostSkillRoot[]): Promise<void> {
    if (!this.#watch || this.#closed) return;
    const fresh = roots.map((root) => root.path).filter((root) => !this.#watched.has(root));
    if (fresh.length === 0) return;
    for (const root of fresh) this.#watched.add(root);
    if (this.#watcher === undefined) {
      // Imported with the first watch, while the scan runs: one-shot hosts never load chokidar.
      const { watch } = await import('chokidar');
      if (this.#closed) return;
      // Another snapshot may have made the watcher while this one waited for the import.
      const made = this.#watcher as FSWatcher | undefined;
      if (made !== undefined) {
        made.add(fresh);
        return;
      }
      this.#watcher = watch(fresh, { ignoreInitial: true, depth: MAX_SCAN_DEPTH + 1, persistent: false });
      this.#watcher.on('all', () => this.#changed());
      // A folder that cannot be watched (inotify limits, permissions) still has its mtime checked on
      // every read; the watcher only makes changes show up sooner and tells clients.
      this.#watcher.on('error', () => undefined);
    } else {
      this.#watcher.add(fresh);
    }
  }

  #changed(): void {
    this.invalidate();
    for (const listener of this.#listeners) listener();
  }
}

async function scanAll(roots: readonly HostSkillRoot[], metadata: SkillMetadataStore | undefined): Promise<HostSkillSnapshot> {
  const paths = new Set(roots.map((root) => root.path));
  const read = metadata === undefined ? undefined : metadata.metadata.bind(metadata);
  const scanned = await Promise.all(roots.map((root) => scanHostRoot(root, new Set([...paths].filter((other) => other !== root.path && path.dirname(other) === root.path)), read)));
  await metadata?.save();
  const names = new Set<string>();
  const skills: Skill[] = [];
  for (const { skills: found } of scanned) {
    for (const skill of found) {
      if (names.has(skill.name)) continue;
      names.add(skill.name);
      skills.push(skill);
    }
  }
  return Object.freeze({ roots: Object.freeze([...roots]), skills: Object.freeze(skills), problems: Object.freeze(scanned.flatMap((root) => root.problems)) });
}

/**
 * Each root's mtime (undefined: absent or unreadable). Read synchronously: this runs before every
 * turn, most roots do not exist, and a local `stat` is microseconds where a promise round trip
 * through the thread pool (and an ENOENT error built for each absent root) is not.
 */
function rootMtimes(roots: readonly HostSkillRoot[]): Promise<(number | undefined)[]> {
  return Promise.resolve(roots.map((root) => {
    try {
      return statSync(root.path, { throwIfNoEntry: false })?.mtimeMs;
    } catch {
      return undefined;
    }
  }));
}

function sameMtimes(a: readonly (number | undefined)[], b: readonly (number | undefined)[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
