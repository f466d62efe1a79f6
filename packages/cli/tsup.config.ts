import { createHash } from 'node:crypto';
import { copyFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig, type Options } from 'tsup';
import { lazyBuiltins } from './build/lazy-builtins.js';
import { BUILD_ID_SUFFIX } from './src/code-cache.js';

const BUNDLES = { skein: 'src/main.ts', 'app-server': 'src/app-server-fast-path.ts', 'exec-server': 'src/exec-server-fast-path.ts', 'features-list': 'src/features-list-fast-path.ts' };

// What the executable and its bundles share: CommonJS for Node 20 (`.cjs` in this ES module package);
// `shims` turns `import.meta.url` in the bundled sources into the bundle's own URL. `node:` imports
// are left to esbuild: tsup's own plugin would mark them external before lazyBuiltins sees them.
const COMMON_JS = {
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  shims: true,
  removeNodeProtocol: false,
} satisfies Options;

// Builtins no fast path uses before its first answer (build/lazy-builtins.ts): each loads when first used.
// Only modules whose export is an object (not `assert`, `events`, `module`), read property by property.
const LAZY_BUILTINS = ['async_hooks', 'child_process', 'crypto', 'dgram', 'dns', 'http', 'http2', 'https', 'net', 'perf_hooks', 'querystring', 'readline', 'stream/promises', 'tls', 'v8', 'worker_threads', 'zlib'];

// The sandboxed fs helper exec-server starts beside its own module; bundled, that module is in dist/.
const FS_HELPER = path.resolve('node_modules', '@skein', 'exec-server', 'dist', 'fs-helper.js');
// The code-mode host (one self-contained script) the code-mode client starts beside its own module.
const CODE_MODE_HOST = path.resolve('node_modules', '@skein', 'code-mode', 'dist', 'code-mode-host.cjs');
// The skills extension's system skills, which it looks for beside the bundle before resolving its package.
const SYSTEM_SKILLS = path.resolve('node_modules', '@skein', 'ext-skills', 'system-skills');

export default defineConfig([
  {
    ...libraryConfig({ entry: ['src/index.ts'] }),
    // One file, as the library's dependencies stay outside it.
    splitting: false,
    // The two builds run at once: this one must not delete what the other writes.
    clean: ['!fs-helper.js', '!*.cjs', '!*.cjs.map', '!*.cjs.build-id', '!system-skills', '!system-skills/**'],
  },
  {
    // The executable: `--version` and the code-cache loader, nothing else (see bin.ts).
    ...COMMON_JS,
    entry: ['src/bin.ts'],
    noExternal: [/./],
  },
  {
    // What bin.cjs runs: the program, and each fast path apart (see bin.ts), every one a CommonJS file
    // with its dependencies inside, because V8's code cache (code-cache.ts) takes a script, not ES
    // modules. A subcommand's modules stay unevaluated until it runs: esbuild turns `import()` of a
    // bundled module into a lazy call. Native addons stay outside, loaded from this package's dependencies.
    ...COMMON_JS,
    entry: BUNDLES,
    splitting: false,
    // `import()` fails in a script V8 made from a code cache on Node 20 ("A dynamic import callback was
    // not specified"): builtins and dependencies are required instead, and extensions are imported
    // by bin.cjs (MainHost.importModule).
    esbuildOptions: (options) => {
      options.supported = { ...options.supported, 'dynamic-import': false };
    },
    // No comments or indentation: ~40 % less text to read and hash at every start, and only ASCII
    // (esbuild escapes the rest), which Node reads without decoding UTF-8. The source map keeps the lines.
    minifyWhitespace: true,
    esbuildPlugins: [lazyBuiltins(LAZY_BUILTINS)],
    noExternal: [/^(?!better-sqlite3$|@lydell\/node-pty$)/],
    external: ['better-sqlite3', '@lydell/node-pty'],
    onSuccess: async () => {
      await copyFile(FS_HELPER, path.join('dist', 'fs-helper.js'));
      await copyFile(CODE_MODE_HOST, path.join('dist', 'code-mode-host.cjs'));
      await rm(path.join('dist', 'system-skills'), { recursive: true, force: true });
      await cp(SYSTEM_SKILLS, path.join('dist', 'system-skills'), { recursive: true });
      // Each bundle's code-cache key (code-cache.ts): V8 itself only checks a script's length.
      for (const name of Object.keys(BUNDLES)) {
        const digest = createHash('sha256').update(await readFile(path.join('dist', `${name}.cjs`))).digest('hex');
        await writeFile(path.join('dist', `${name}.cjs${BUILD_ID_SUFFIX}`), `${digest}\n`);
      }
    },
  },
]);
