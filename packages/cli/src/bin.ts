#!/usr/bin/env node
// The `skein` executable: answers `--version` itself and runs everything else from CommonJS bundles
// beside this file, through V8's code cache (code-cache.ts), so a start reuses what the last one
// compiled. `skein.cjs` is the whole program (main.ts); the servers and `features list` have fast
// paths (their own flags, no command tree) bundled apart, because every start reads, hashes and
// deserializes its bundle: the exec-server's own is a quarter of the whole. Built as CommonJS
// (dist/bin.cjs): Node starts a CommonJS entry ~3 ms sooner than an ES module one.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { debuglog } from 'node:util';
import type * as V8 from 'node:v8';
import { defaultCodeCacheDir, loadBundle } from './code-cache.js';
import type { FastPath } from './fast-path.js';
import type { main as Main, MainHost } from './main.js';
import { asksForHelp } from './own-flags.js';
import { VERSION_LINE } from './version.js';

// A server's start has compiled what it needs by then; a short command writes its cache as it exits.
const SAVE_CACHE_AFTER_MS = 1000;
// Each of these caches what its own start of the whole program compiles; every other command shares one.
const CACHED_COMMANDS = new Set(['app-server', 'exec', 'exec-server', 'features']);
/** Commands with a fast path: the bundle it is in, and how many arguments name the command. */
const FAST_PATHS = new Map([
  ['app-server', { bundle: 'app-server.cjs', words: 1 }],
  ['exec-server', { bundle: 'exec-server.cjs', words: 1 }],
  ['features list', { bundle: 'features-list.cjs', words: 2 }],
]);
const LIFTOFF_ONLY = '--liftoff-only';
const DIST = path.dirname(fileURLToPath(import.meta.url));
const debug = debuglog('skein-code-cache');

const argv = process.argv.slice(2);
// `--version` alone needs none of the program: answer it before loading the rest (issue #18).
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION_LINE}\n`);
} else {
  void run(argv).then((code) => {
    process.exitCode = code;
  });
}

async function run(argv: readonly string[]): Promise<number> {
  // `e` is exec's alias.
  const command = argv[0] === 'e' ? 'exec' : (argv[0] ?? '');
  // fetch parses HTTP with WebAssembly, and V8 recompiles that in the background with its optimising
  // tier; Node waits for background compiles before it exits, which cost `exec` ~80 ms after its
  // answer (issue #18). The model request does not use fetch, but an extension's tool may; one turn
  // gains nothing from the optimised tier. The servers keep V8's default. Set before any bundle
  // loads: V8 refuses a code cache written under other flags. node:v8 is required only here.
  const setV8Flags = (flags: string) => (createRequire(import.meta.url)('node:v8') as typeof V8).setFlagsFromString(flags);
  let shortLived = command === 'exec';
  if (shortLived) setV8Flags(LIFTOFF_ONLY);
  const cacheDir = defaultCodeCacheDir(process.env);
  const load = (bundle: string, tag?: string) => {
    const loaded = loadBundle(path.join(DIST, bundle), { cacheDir, tag });
    // `NODE_DEBUG=skein-code-cache` tells whether this start reused the last one's compiled code.
    debug('%s %s', loaded.cache, bundle);
    if (loaded.cache !== 'hit' && loaded.cache !== 'off') {
      // A cache keeps what its first start compiled until the next build: not help's or a failure's.
      process.once('exit', (code) => {
        if (code === 0 && argv[0] !== 'help' && !asksForHelp(argv)) loaded.saveCache();
      });
      setTimeout(() => loaded.saveCache(), SAVE_CACHE_AFTER_MS).unref();
    }
    return loaded;
  };
  const loads: ReturnType<typeof load>[] = [];
  const host: MainHost = {
    // Node compiled this file, so its `import()` works; the bundles' would not (see code-cache.ts).
    importModule: (url) => import(url),
    shortLived: () => {
      if (shortLived) return;
      shortLived = true;
      // An exec behind global flags (`skein -c … exec`): the flags change after the load, so a cache
      // written from here on would be refused at the next start.
      for (const loaded of loads) loaded.forgoCache();
      setV8Flags(LIFTOFF_ONLY);
    },
  };

  const fastPath = FAST_PATHS.get(command) ?? FAST_PATHS.get(argv.slice(0, 2).join(' '));
  if (fastPath !== undefined) {
    const loaded = load(fastPath.bundle);
    loads.push(loaded);
    const code = await (loaded.exports as { runFastPath: FastPath }).runFastPath(argv.slice(fastPath.words), host);
    if (code !== undefined) return code;
  }
  const program = load('skein.cjs', CACHED_COMMANDS.has(command) ? command : 'other');
  loads.push(program);
  return (program.exports as { main: typeof Main }).main(argv, host);
}
