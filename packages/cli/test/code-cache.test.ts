// The code-cache loader bin.cjs runs the program through: a real CommonJS file compiled by V8, and
// every way the cache can be absent, stale or broken. V8 keeps what it compiled for the life of this
// process, so a second load here could be served from memory: a cache reused by the next process is
// tested through the built executable (code-cache-bin.test.ts).
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_ID_SUFFIX, defaultCodeCacheDir, loadBundle } from '../src/code-cache.js';

let scratch: string;
let bundle: string;
let cacheDir: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-code-cache-'));
  bundle = path.join(scratch, 'program.cjs');
  cacheDir = path.join(scratch, 'cache', 'v8');
  writeBundle('a'.repeat(64), 'first');
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** A bundle whose exported function uses require and __dirname as a real one does. */
function writeBundle(buildId: string, answer: string): void {
  writeFileSync(bundle, `const path = require('node:path');\nmodule.exports = { answer: () => ${JSON.stringify(answer)} + ':' + path.basename(__dirname) };\n`);
  writeFileSync(`${bundle}${BUILD_ID_SUFFIX}`, `${buildId}\n`);
}

const load = (tag = 'exec') => loadBundle(bundle, { cacheDir, tag });
const answer = (loaded: ReturnType<typeof load>) => (loaded.exports as { answer: () => string }).answer();
const cacheFiles = () => readdirSync(cacheDir).sort();

describe('loadBundle', () => {
  it('runs the bundle uncached first and saves the compiled code once, for the owner only', () => {
    const first = load();
    expect(first.cache).toBe('miss');
    expect(answer(first)).toBe(`first:${path.basename(scratch)}`);
    expect(first.saveCache()).toBe(true);
    expect(first.saveCache()).toBe(false);
    const [file] = cacheFiles();
    expect(file).toMatch(new RegExp(`^program-exec-${process.version.replaceAll('.', '\\.')}-${process.arch}-${'a'.repeat(16)}-[0-9a-z.]+\\.bin$`));
    expect(statSync(path.join(cacheDir, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
  });

  it('keeps one cache per command, and the newest three builds of each', () => {
    load('exec').saveCache();
    load('exec-server').saveCache();
    for (const [index, id] of ['b', 'c', 'd'].entries()) {
      writeBundle(id.repeat(64), `build ${id}`);
      // Distinct mtimes, so "newest" is well defined on coarse file systems.
      utimesSync(bundle, new Date(), new Date(Date.now() + index * 1000));
      const rebuilt = load('exec');
      expect(rebuilt.cache).toBe('miss');
      expect(answer(rebuilt)).toContain(`build ${id}`);
      rebuilt.saveCache();
      utimesSync(path.join(cacheDir, cacheFiles().find((file) => file.includes(id.repeat(16)))!), new Date(), new Date(Date.now() + index * 1000));
    }
    const execBuilds = cacheFiles()
      .filter((file) => file.startsWith(`program-exec-${process.version}-`))
      .map((file) => /-([a-f])\1{15}-/.exec(file)?.[1] ?? '?');
    expect(cacheFiles().filter((file) => file.startsWith('program-exec-server-'))).toHaveLength(1);
    expect(execBuilds).toEqual(['b', 'c', 'd']);
  });

  it('misses after the bundle changes in place under the same build id (a patched install)', () => {
    load().saveCache();
    // Same length, same build id: V8 alone would take the old cache for the new text.
    writeBundle('a'.repeat(64), 'fixst');
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    const patched = load();
    expect(patched.cache).toBe('miss');
    expect(answer(patched)).toContain('fixst');
  });

  it('runs a bundle whose cache V8 refuses, and writes a new one in its place', () => {
    // Whole seconds: a time set back from a fraction of a millisecond can come back a nanosecond off.
    const second = 1_700_000_000;
    utimesSync(bundle, second, second);
    load().saveCache();
    const [file] = cacheFiles();
    writeFileSync(path.join(cacheDir, file!), 'not a code cache');
    // Other text of the same length, mtime and inode, so the cache file is the same one and V8
    // compiles the text rather than reuse this process's copy.
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('first', 'fixst'));
    utimesSync(bundle, second, second);
    const refused = load();
    expect(refused.cache).toBe('rejected');
    expect(answer(refused)).toContain('fixst');
    expect(refused.saveCache()).toBe(true);
    expect(readFileSync(path.join(cacheDir, file!)).toString('latin1')).not.toBe('not a code cache');
  });

  it('caches nothing without a cache directory or a well-formed build id', () => {
    const off = loadBundle(bundle, { cacheDir: undefined, tag: 'exec' });
    expect(off.cache).toBe('off');
    expect(off.saveCache()).toBe(false);
    rmSync(`${bundle}${BUILD_ID_SUFFIX}`);
    expect(load().cache).toBe('off');
    writeFileSync(`${bundle}${BUILD_ID_SUFFIX}`, '../../etc/passwd\n');
    const odd = load();
    expect(odd.cache).toBe('off');
    expect(answer(odd)).toContain('first');
  });

  it('still runs when the cache cannot be written, and leaves no partial file', () => {
    mkdirSync(path.dirname(cacheDir), { recursive: true });
    writeFileSync(cacheDir, 'a file where the directory should be');
    const loaded = load();
    expect(answer(loaded)).toContain('first');
    expect(loaded.saveCache()).toBe(false);
    expect(readdirSync(path.dirname(cacheDir))).toEqual(['v8']);
  });

  it('refuses a cache folder others may write or that is a link, and does not follow a link in place of a cache file', () => {
    load().saveCache();
    const [file] = cacheFiles();
    chmodSync(cacheDir, 0o777);
    expect(load().cache).toBe('off');
    expect(load().saveCache()).toBe(false);
    chmodSync(cacheDir, 0o700);

    const elsewhere = path.join(scratch, 'elsewhere');
    renameSync(cacheDir, elsewhere);
    symlinkSync(elsewhere, cacheDir);
    expect(load().cache).toBe('off');
    rmSync(cacheDir);
    renameSync(elsewhere, cacheDir);

    // A link in place of the cache file is not followed.
    rmSync(path.join(cacheDir, file!));
    writeFileSync(path.join(scratch, 'planted'), 'x');
    symlinkSync(path.join(scratch, 'planted'), path.join(cacheDir, file!));
    expect(load().cache).toBe('miss');
  });

  it.skipIf(process.getuid?.() !== 0)('ignores a cache file another user owns (chown needs root: skipped otherwise)', () => {
    load().saveCache();
    const [file] = cacheFiles();
    chownSync(path.join(cacheDir, file!), 4242, 4242);
    const loaded = load();
    expect(loaded.cache).toBe('miss');
    // Replaced by this user's own on the next write.
    expect(loaded.saveCache()).toBe(true);
    expect(statSync(path.join(cacheDir, file!)).uid).toBe(0);
  });

  it('writes nothing after forgoCache (V8 flags are about to change)', () => {
    const loaded = load();
    loaded.forgoCache();
    expect(loaded.saveCache()).toBe(false);
    expect(() => readdirSync(cacheDir)).toThrow();
  });
});

describe('defaultCodeCacheDir', () => {
  it('follows XDG_CACHE_HOME when it is absolute, else ~/.cache', () => {
    expect(defaultCodeCacheDir({ XDG_CACHE_HOME: '/var/cache/me' }, 'linux')).toBe(path.join('/var/cache/me', 'skein', 'v8'));
    expect(defaultCodeCacheDir({ XDG_CACHE_HOME: 'relative' }, 'linux')).toMatch(/\.cache[/\\]skein[/\\]v8$/);
  });

  it('uses LOCALAPPDATA on Windows and Library/Caches on macOS', () => {
    expect(defaultCodeCacheDir({ LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' }, 'win32')).toBe(path.join('C:\\Users\\me\\AppData\\Local', 'skein', 'v8'));
    expect(defaultCodeCacheDir({}, 'darwin')).toMatch(/Library[/\\]Caches[/\\]skein[/\\]v8$/);
  });

  it('is off when NODE_DISABLE_COMPILE_CACHE is set, as Node’s own cache is', () => {
    expect(defaultCodeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, 'linux')).toBeUndefined();
    expect(defaultCodeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '' }, 'linux')).toBeDefined();
  });
});
