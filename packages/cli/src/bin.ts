#!/usr/bin/env node
// The `skein` executable: answers `--version` itself and runs the program (main.ts, bundled as
// skein.cjs beside this file) through V8's code cache, so a start reuses what the last one compiled.
// Built as CommonJS (dist/bin.cjs): Node starts a CommonJS entry ~3 ms sooner than an ES module one.
import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { debuglog } from 'node:util';
import { defaultCodeCacheDir, loadBundle } from './code-cache.js';
import type { main as Main, MainHost } from './main.js';
import { VERSION_LINE } from './version.js';

// A server's start has compiled what it needs by then; a short command writes its cache as it exits.
const SAVE_CACHE_AFTER_MS = 1000;
// Each of these caches what its own start compiles; every other command shares one cache.
const CACHED_COMMANDS = new Set(['app-server', 'exec', 'exec-server', 'features', 'resume']);
const LIFTOFF_ONLY = '--liftoff-only';

const argv = process.argv.slice(2);
// `--version` alone needs none of the program: answer it before loading the rest (issue #18).
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION_LINE}\n`);
} else {
  // fetch parses HTTP with WebAssembly, and V8 recompiles that in the background with its optimising
  // tier; Node waits for background compiles before it exits, which cost `exec` ~80 ms after its
  // answer (issue #18). The model request does not use fetch, but an extension's tool may; one turn
  // gains nothing from the optimised tier. The servers keep V8's default. Set before the bundle
  // loads: V8 refuses a code cache written under other flags.
  // node:v8 is required only here: loading it costs every other command a few builtin modules.
  const setV8Flags = (flags: string) => (createRequire(import.meta.url)('node:v8') as typeof V8).setFlagsFromString(flags);
  let shortLived = argv[0] === 'exec';
  if (shortLived) setV8Flags(LIFTOFF_ONLY);
  const bundle = loadBundle(path.join(path.dirname(fileURLToPath(import.meta.url)), 'skein.cjs'), {
    cacheDir: defaultCodeCacheDir(process.env),
    tag: CACHED_COMMANDS.has(argv[0] ?? '') ? (argv[0] ?? '') : 'skein',
  });
  // `NODE_DEBUG=skein-code-cache` tells whether this start reused the last one's compiled code.
  debuglog('skein-code-cache')('%s %s', bundle.cache, argv[0] ?? '');
  if (bundle.cache !== 'hit' && bundle.cache !== 'off') {
    process.once('exit', () => bundle.saveCache());
    setTimeout(() => bundle.saveCache(), SAVE_CACHE_AFTER_MS).unref();
  }
  const { main } = bundle.exports as { main: typeof Main };
  const host: MainHost = {
    // Node compiled this file, so its `import()` works; the bundle's would not (see code-cache.ts).
    importModule: (url) => import(url),
    shortLived: () => {
      if (shortLived) return;
      shortLived = true;
      // An exec behind global flags (`skein -c … exec`): the flags change after the load, so a cache
      // written from here on would be refused at the next start.
      bundle.forgoCache();
      setV8Flags(LIFTOFF_ONLY);
    },
  };
  void main(argv, host).then((code) => {
    process.exitCode = code;
  });
}
