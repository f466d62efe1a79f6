// Runs the CommonJS bundle of the `skein` program through V8's code cache. Node 20 caches no compiled
// code between runs (its compile cache is Node ≥ 22.1), so every start parsed and compiled ~1 MB of
// bundled JavaScript again: ~30 ms of an app-server's or an exec's start (issue #18). A `vm.Script`
// given the bytes `createCachedData` wrote last time skips that work. The cache is only a speed-up:
// any failure to read, accept or write it runs the bundle uncached, exactly as before. One limit: on
// Node 20, `import()` fails in a script V8 made from a cache ("A dynamic import callback was not
// specified"), whatever `importModuleDynamically` says, so the bundle is built without `import()`.
import { isAscii } from 'node:buffer';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/** Compiles and runs the CommonJS `file` (with the cache when one fits) and returns its exports. */
export function loadBundle(file: string, options: LoadBundleOptions): LoadedBundle {
  const bytes = readFileSync(file);
  // ASCII reads as Latin-1 in a third of UTF-8's time, and the bundle is built ASCII-only.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const buildId = readIfPresent(`${file}${BUILD_ID_SUFFIX}`)?.toString('utf8').trim();
  const cacheFile = options.cacheDir === undefined || buildId === undefined || !/^[0-9a-f]{16,64}$/.test(buildId) ? undefined : path.join(options.cacheDir, cacheFileName(file, buildId, options.tag));
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
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

/** Beside a bundle, the hash of its text that its build wrote (see tsup.config.ts). */
export const BUILD_ID_SUFFIX = '.build-id';

/** One file per bundle build, Node build and command. V8 checks its own version and flags and the
 * source's length, not its text: the build id stands for the text (npm gives every installed file
 * the same mtime, so a stat would not). */
function cacheFileName(file: string, buildId: string, tag: string | undefined): string {
  const name = [path.basename(file, path.extname(file)), ...(tag === undefined ? [] : [tag.replace(/[^a-z0-9-]/gi, '_')])].join('-');
  return `${name}-${process.version}-${process.arch}-${buildId.slice(0, 16)}.bin`;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes `data` whole or not at all (a temporary file renamed over), then drops this command's caches
 * of older builds so the directory does not grow with every upgrade. */
function writeCache(cacheFile: string, data: Buffer): boolean {
  const dir = path.dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = openSync(temporary, 'w', 0o600);
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
  const name = path.basename(cacheFile);
  // `<bundle>-<tag>-v<node>…`: the `v` keeps `exec-` from matching `exec-server-`.
  const group = `${name.slice(0, name.indexOf(`-${process.version}-`))}-v`;
  try {
    for (const entry of readdirSync(dir)) {
      if (entry !== name && entry.startsWith(group) && entry.endsWith('.bin')) rmSync(path.join(dir, entry), { force: true });
    }
  } catch {
    // Another process pruning at the same time, say: the next write tries again.
  }
  return true;
}
