// What one config load read from disk — each file's identity as it was read, and each path whose
// existence it asked about — so a cached result can tell whether the disk still says the same.
import { existsSync, statSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * A file modified this close to (or after) the load's start may change again within the same
 * timestamp tick, unseen by its mtime (filesystems keep coarse clocks: a jiffy on ext4, 2 s on FAT),
 * so a load that read one is not cached — git's "racily clean" rule.
 */
export const RACY_WINDOW_MS = 2_000;

/**
 * A file as `stat` saw it: any write changes one of these (a same-size edit, its mtime; a replace by
 * rename, its inode). A stat that failed other than for absence is its error code.
 */
type FileIdentity = string;

/** `file`'s stats, undefined when it does not exist; another failure becomes the error's code. */
function statOf(file: string): Stats | undefined | { readonly code: string } {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    return code === 'ENOTDIR' ? undefined : { code };
  }
}

function identityOf(stats: Stats | undefined | { readonly code: string }): FileIdentity | undefined {
  if (stats === undefined) return undefined;
  if ('code' in stats) return `error:${stats.code}`;
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** The reads of one load; its `readText` and `exists` stand in for the fs calls the load makes. */
export class ConfigReads {
  /** File → its identity when read (undefined: it did not exist). */
  readonly #files = new Map<string, FileIdentity | undefined>();
  /** Path → whether it existed (a project root marker, a hooks.json beside a config). */
  readonly #probes = new Map<string, boolean>();
  readonly #startedMs: number;
  #racy = false;

  constructor(startedMs: number = Date.now()) {
    this.#startedMs = startedMs;
  }

  /**
   * `file`'s text, `undefined` when it does not exist (ENOENT/ENOTDIR); other errors are thrown.
   * Stat comes first: a write between stat and read then shows as a changed identity next time,
   * never as an old identity cached with new text.
   */
  async readText(file: string): Promise<string | undefined> {
    const stats = statOf(file);
    this.#files.set(file, identityOf(stats));
    if (stats !== undefined && !('code' in stats) && stats.mtimeMs > this.#startedMs - RACY_WINDOW_MS) this.#racy = true;
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        // Gone since the stat: what was recorded must say so, or a cached result would outlive it.
        this.#files.set(file, undefined);
        return undefined;
      }
      throw error;
    }
  }

  /** Whether `path` exists, as `existsSync` answers. */
  exists(path: string): boolean {
    const exists = existsSync(path);
    this.#probes.set(path, exists);
    return exists;
  }

  /** Whether a result built from these reads may be reused: no file it read was modified too recently. */
  get cacheable(): boolean {
    return !this.#racy;
  }

  /** Whether every file read and path probed is as it was: same identity, same existence. */
  unchanged(): boolean {
    for (const [file, identity] of this.#files) {
      if (identityOf(statOf(file)) !== identity) return false;
    }
    for (const [path, exists] of this.#probes) {
      if (existsSync(path) !== exists) return false;
    }
    return true;
  }
}
