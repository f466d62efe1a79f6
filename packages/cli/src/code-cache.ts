// Runs a CommonJS bundle of the `skein` program through V8's code cache. Node 20 caches no compiled
// code between runs (its compile cache is Node ≥ 22.1), so every start parsed and compiled megabytes
// of bundled JavaScript again: ~30 ms of an app-server's or an exec's start (issue #18). A
// `vm.Script` given the bytes `createCachedData` wrote last time skips that work. The cache is only a
// speed-up: any failure to read, accept or write it runs the bundle uncached, exactly as before.
// One limit: on Node 20, `import()` fails in a script V8 made from a cache ("A dynamic import
// callback was not specified"), whatever `importModuleDynamically` says, so the bundles are built
// without `import()`.
//
// V8 runs what it deserializes without checking it, so a cache file is code: it is read only from a
// folder that is this user's alone (not a link, no group or other write) and only if this user owns it.
import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** How the cache served this load: reused, absent, refused by V8 (another V8 or flags), or turned off. */
export type CodeCacheState = 'hit' | 'miss' | 'rejected' | 'off';

export interface LoadedBundle {
  /** What the bundle assigned to `module.exports`. */
  readonly exports: unknown;
  readonly cache: CodeCacheState;
  /** Writes the code compiled so far for the next start, once, when this load could not use a cache;
   * true when a cache file was written. Never throws: an unwritable cache only costs the speed-up. */
  saveCache(): boolean;
  /** Gives up this load's cache write: V8's flags are about to change, and V8 refuses a cache written
   * under flags other than those of the start that reads it. */
  forgoCache(): void;
}

export interface LoadBundleOptions {
  /** Where cache files live; undefined turns the cache off. */
  readonly cacheDir: string | undefined;
  /** Names the cache apart per command when one bundle serves several: each caches what its own start compiles. */
  readonly tag?: string | undefined;
}

/** Beside a bundle, the hash of its text that its build wrote (see tsup.config.ts). */
export const BUILD_ID_SUFFIX = '.build-id';

/** Older builds' caches kept per bundle, Node version and architecture (two installs may alternate). */
const KEPT_BUILDS = 3;

/** Compiles and runs the CommonJS `file` (with the cache when one fits) and returns its exports. */
export function loadBundle(file: string, options: LoadBundleOptions): LoadedBundle {
  // Node maps stack traces through source maps only for code its own loader compiled.
  if (process.sourceMapsEnabled) return uncached(createRequire(file)(file) as unknown);
  const { bytes, stats } = readWithStats(file);
  // ASCII reads as Latin-1 in a third of UTF-8's time, and the bundle is built ASCII-only.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const cacheFile = cacheFileFor(file, stats, options);
  const cachedData = cacheFile === undefined ? undefined : readPrivateFile(cacheFile);
  // The wrapper on a line of its own, and the line offset, keep stack positions those of the file.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, { filename: file, lineOffset: -1, cachedData });
  const cache: CodeCacheState = cacheFile === undefined ? 'off' : cachedData === undefined ? 'miss' : script.cachedDataRejected === true ? 'rejected' : 'hit';
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
  wrapper(module.exports, createRequire(file), module, file, path.dirname(file));
  let saved = false;
  return {
    exports: module.exports,
    cache,
    saveCache: () => {
      if (saved || cacheFile === undefined || cache === 'hit') return false;
      saved = true;
      return writeCache(cacheFile, script.createCachedData());
    },
    forgoCache: () => {
      saved = true;
    },
  };
}

/** The per-user directory for code caches: `$XDG_CACHE_HOME/skein/v8` (or the platform's equivalent);
 * undefined when `NODE_DISABLE_COMPILE_CACHE` asks for none, as it does of Node's own cache. */
export function defaultCodeCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined && env.NODE_DISABLE_COMPILE_CACHE !== '') return undefined;
  const base =
    platform === 'win32'
      ? (env.LOCALAPPDATA ?? path.join(homedir(), 'AppData', 'Local'))
      : platform === 'darwin'
        ? path.join(homedir(), 'Library', 'Caches')
        : env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME)
          ? env.XDG_CACHE_HOME
          : path.join(homedir(), '.cache');
  return path.join(base, 'skein', 'v8');
}

function uncached(exports: unknown): LoadedBundle {
  return { exports, cache: 'off', saveCache: () => false, forgoCache: () => undefined };
}

/** The bundle's bytes and the stat of the very file they came from. */
function readWithStats(file: string): { bytes: Buffer; stats: Stats } {
  const fd = openSync(file, 'r');
  try {
    return { stats: fstatSync(fd), bytes: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The cache file for this bundle text, Node build and command; undefined without a well-formed build
 * id or a private cache folder. V8 checks its own version and flags and the source's length, not its
 * text: the build id stands for the text, and the file's size, mtime and inode for what a build id
 * misses (an install that patched the bundle in place, a build that wrote the bundle but not yet its id).
 */
function cacheFileFor(file: string, stats: Stats, options: LoadBundleOptions): string | undefined {
  if (options.cacheDir === undefined || !isPrivateDir(options.cacheDir, 'existing')) return undefined;
  const buildId = readIfPresent(`${file}${BUILD_ID_SUFFIX}`)?.toString('utf8').trim();
  if (buildId === undefined || !/^[0-9a-f]{16,64}$/.test(buildId)) return undefined;
  const name = [path.basename(file, path.extname(file)), ...(options.tag === undefined ? [] : [options.tag.replace(/[^a-z0-9-]/gi, '_')])].join('-');
  const fileId = [stats.size, Math.trunc(stats.mtimeMs), stats.ino].map((value) => value.toString(36)).join('.');
  return path.join(options.cacheDir, `${name}-${process.version}-${process.arch}-${buildId.slice(0, 16)}-${fileId}.bin`);
}

/**
 * Whether `dir` is this user's alone: a real directory (not a link), owned by this user, that nobody
 * else may write. `existing` answers true for a folder not made yet (there is nothing to read);
 * Windows has no POSIX owner to check, and relies on the per-user LOCALAPPDATA.
 */
function isPrivateDir(dir: string, when: 'existing' | 'written'): boolean {
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch (error) {
    return when === 'existing' && (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  if (!stats.isDirectory()) return false;
  if (process.platform === 'win32' || process.getuid === undefined) return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/** A regular file this user owns, read without following a link; undefined otherwise. */
function readPrivateFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    if (process.platform !== 'win32' && process.getuid !== undefined && stats.uid !== process.getuid()) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes `data` whole or not at all (a new temporary file renamed over), then keeps the newest few
 * caches of the same bundle, Node version and architecture so the folder does not grow with upgrades. */
function writeCache(cacheFile: string, data: Buffer): boolean {
  const dir = path.dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateDir(dir, 'written')) return false;
    // `wx`: a file (or link) already there is someone else's, never written through.
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, cacheFile);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // No directory to hold it, so no partial file either.
    }
    return false;
  }
  pruneOlderBuilds(dir, path.basename(cacheFile));
  return true;
}

function pruneOlderBuilds(dir: string, kept: string): void {
  // `<bundle>[-<tag>]-v<node>-<arch>-`: the version keeps `exec-` from matching `exec-server-`.
  const group = kept.slice(0, kept.indexOf(`-${process.version}-${process.arch}-`) + `-${process.version}-${process.arch}-`.length);
  try {
    const older = readdirSync(dir)
      .filter((entry) => entry !== kept && entry.startsWith(group) && entry.endsWith('.bin'))
      .map((entry) => ({ entry, mtime: lstatSync(path.join(dir, entry)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { entry } of older.slice(KEPT_BUILDS - 1)) rmSync(path.join(dir, entry), { force: true });
  } catch {
    // Another process pruning at the same time, say: the next write tries again.
  }
}
