// Loaded configs kept for reuse. An app-server reloads config for the same directory on every turn
// (skills settings, turn settings), and reading, parsing and validating every layer each time was
// most of a turn's CPU with many threads; an unchanged config is now loaded once.
import type { ConfigReads } from './config-reads.js';
import type { LoadedConfig } from './load-config.js';

/**
 * Configs kept; the least recently used is dropped first. Loads differ by cwd and by each thread's
 * `-c` overrides (model, sandbox), so a busy server holds a few dozen distinct ones.
 */
export const LOADED_CONFIG_CACHE_SIZE = 64;

interface Entry {
  readonly loaded: LoadedConfig;
  readonly reads: ConfigReads;
}

/**
 * Keyed by everything a load takes besides the disk (cwd, home, options, the environment it reads:
 * see `loadKey`); an entry is valid while its `ConfigReads` finds every file it read with the same
 * identity (inode, size, mtime, ctime) and every path it probed as present or absent as it was.
 */
export class LoadedConfigCache {
  readonly #entries = new Map<string, Entry>();
  readonly #limit: number;

  constructor(limit: number = LOADED_CONFIG_CACHE_SIZE) {
    this.#limit = limit;
  }

  /** The config loaded for `key`, if the files it was read from are unchanged. */
  get(key: string): LoadedConfig | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (!entry.reads.unchanged()) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.#entries.set(key, entry);
    return entry.loaded;
  }

  /** Keeps `loaded` for `key`, unless a file it read was modified too recently to trust its mtime. */
  set(key: string, loaded: LoadedConfig, reads: ConfigReads): void {
    if (!reads.cacheable) return;
    this.#entries.delete(key);
    this.#entries.set(key, { loaded, reads });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#limit) break;
      this.#entries.delete(oldest);
    }
  }
}
