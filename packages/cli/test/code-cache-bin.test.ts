// The built `skein` reuses what its last start compiled (V8's code cache, bin.ts + code-cache.ts):
// each start is a new process, `NODE_DEBUG=skein-code-cache` says whether it was a hit, and the answers
// are the same either way — including an extension's, imported from code V8 rebuilt from the cache.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { AppServerTestClient, assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, execScratch } from './support/exec-run.js';

const NOTE_EXTENSION = path.join(import.meta.dirname, 'fixtures', 'note-extension.mjs');
const run = promisify(execFile);

let root: string;
let cacheDir: string;
let env: Record<string, string | undefined>;
/** Servers a test started, closed before its folder goes even when an assertion failed first. */
const servers: AppServerTestClient[] = [];
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-code-cache-bin-'));
  mkdirSync(path.join(root, 'home'));
  cacheDir = path.join(root, 'cache', 'skein', 'v8');
  env = { PATH: process.env.PATH, HOME: root, CODEX_HOME: path.join(root, 'home'), XDG_CACHE_HOME: path.join(root, 'cache'), NODE_DEBUG: 'skein-code-cache' };
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  rmSync(root, { recursive: true, force: true });
});
const spawnServer = () => {
  const server = AppServerTestClient.spawn(process.execPath, [BIN, 'app-server'], { cwd: root, env });
  servers.push(server);
  return server;
};

/** The state bin.cjs reported for this start (`hit`, `miss`, `rejected`, `off`). */
const cacheState = (stderr: string) => /SKEIN-CODE-CACHE \d+: (\w+)/.exec(stderr)?.[1];
/** The bundles bin.cjs loaded, in order. */
const loadedBundles = (stderr: string) => [...stderr.matchAll(/SKEIN-CODE-CACHE \d+: \w+ (\S+)/g)].map((match) => match[1]);
const skein = (args: readonly string[], extraEnv: Record<string, string> = {}) => run(process.execPath, [BIN, ...args], { cwd: root, env: { ...env, ...extraEnv } });
const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir) : []);

describe('the code cache of the skein executable', () => {
  it('misses once, writes the cache as the command exits, and hits from then on with the same output', async () => {
    const first = await skein(['features', 'list']);
    expect(cacheState(first.stderr)).toBe('miss');
    expect(cacheFiles()).toEqual([expect.stringMatching(new RegExp(`^features-list-${process.version.replaceAll('.', '\\.')}-${process.arch}-[0-9a-f]{16}-[0-9a-z.]+\\.bin$`))]);
    const second = await skein(['features', 'list']);
    expect(cacheState(second.stderr)).toBe('hit');
    expect(second.stdout).toBe(first.stdout);
  });

  it('recovers from a cache file that is not one: runs uncached, then replaces it', async () => {
    const first = await skein(['features', 'list']);
    const [file] = cacheFiles();
    writeFileSync(path.join(cacheDir, file!), 'garbage');
    const refused = await skein(['features', 'list']);
    expect(cacheState(refused.stderr)).toBe('rejected');
    expect(refused.stdout).toBe(first.stdout);
    expect(readFileSync(path.join(cacheDir, file!), 'latin1')).not.toBe('garbage');
    expect(cacheState((await skein(['features', 'list'])).stderr)).toBe('hit');
  });

  it('writes nothing when NODE_DISABLE_COMPILE_CACHE asks for no cache', async () => {
    const { stderr, stdout } = await skein(['features', 'list'], { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(cacheState(stderr)).toBe('off');
    expect(stdout).toContain('multi_agent_v2');
    expect(existsSync(path.join(root, 'cache'))).toBe(false);
  });

  it('runs a fast path from its own bundle, and the whole program when the fast path declines', async () => {
    const fast = await skein(['features', 'list']);
    expect(loadedBundles(fast.stderr)).toEqual(['features-list.cjs']);
    // --help is the command tree's: the fast path declines it, and the program loads beside it.
    const declined = await skein(['app-server', '--help']);
    expect(declined.stdout).toContain('Usage: skein app-server');
    expect(loadedBundles(declined.stderr)).toEqual(['app-server.cjs', 'skein.cjs']);
    // Help's start compiles little of what the command needs: it leaves the cache to a real run.
    expect(cacheFiles().map((file) => file.replace(/-v\d.*$/, ''))).toEqual(['features-list']);
  });

  it('treats a command named like an Object property as any unknown command', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      const failed = await skein([name]).catch((error: unknown) => error as { code: number; stderr: string });
      expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining(`error: unknown command '${name}'`) as unknown });
    }
  });

  it('runs the bundles through Node’s own loader, uncached, when source maps are on (stack traces map)', async () => {
    const { stdout, stderr } = await run(process.execPath, ['--enable-source-maps', BIN, 'features', 'list'], { cwd: root, env });
    expect(stdout).toContain('multi_agent_v2');
    expect(cacheState(stderr)).toBe('off');
    expect(cacheFiles()).toEqual([]);
  });

  it('answers --version without loading the program at all', async () => {
    const { stdout, stderr } = await skein(['--version']);
    expect(stdout).toMatch(/^skein \S+ \(compatible with codex-cli 0\.171\.0\)\n$/);
    expect(cacheState(stderr)).toBeUndefined();
    expect(cacheFiles()).toEqual([]);
  });

  it('caches a running server a second into its life, and the next server starts from that cache', async () => {
    const server = spawnServer();
    await server.initialize();
    for (let waited = 0; cacheFiles().length === 0 && waited < 10_000; waited += 50) await delay(50);
    expect(cacheFiles()).toEqual([expect.stringMatching(/^app-server-v/)]);
    const written = statSync(path.join(cacheDir, cacheFiles()[0]!)).mtimeMs;
    await server.close();

    const again = spawnServer();
    const result = (await again.initialize()) as { codexHome: string };
    expect(result.codexHome).toBe(path.join(root, 'home'));
    expect(cacheState(again.stderr())).toBe('hit');
    await again.close();
    // A hit writes nothing, so the file is the first server's.
    expect(statSync(path.join(cacheDir, cacheFiles()[0]!)).mtimeMs).toBe(written);
  });
});

describe('exec from the code cache', () => {
  it('imports an extension from code V8 rebuilt from the cache (the bundle has no import() of its own)', async () => {
    const fixture = await execScratch('skein-code-cache-exec-');
    try {
      const cacheHome = path.join(fixture.scratch, 'user', '.cache', 'skein', 'v8');
      for (const attempt of ['miss', 'hit']) {
        const callId = `call_${attempt}`;
        fixture.server.expect([sse(functionCall('note_add', { text: 'buy milk' }, { callId }), completed()), sse(assistantMessage('Noted.'), completed())]);
        const { code, stderr } = await fixture.skein(['exec', '--skip-git-repo-check', '--extension', NOTE_EXTENSION, 'Note: buy milk.'], { env: { NODE_DEBUG: 'skein-code-cache' } });
        expect(code, stderr).toBe(0);
        expect(cacheState(stderr)).toBe(attempt);
        expect(readdirSync(cacheHome)).toEqual([expect.stringMatching(/^skein-exec-/)]);
        expect(fixture.server.requests.at(-1)!.toolOutputText(callId)).toBe('noted: buy milk');
      }
    } finally {
      await fixture.cleanup();
    }
  });
});
