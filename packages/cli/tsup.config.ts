import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

// The sandboxed fs helper exec-server starts beside its own module; bundled, that module is bin.js.
const FS_HELPER = path.resolve('node_modules', '@skein', 'exec-server', 'dist', 'fs-helper.js');

export default defineConfig([
  {
    ...libraryConfig({ entry: ['src/index.ts'] }),
    // One file, as the library's dependencies stay outside it; the executable below is the split one.
    splitting: false,
    // The two builds run at once: this one must not delete what the other writes.
    clean: ['!bin.js', '!bin.js.map', '!fs-helper.js', '!bin-*.js', '!bin-*.js.map'],
  },
  {
    // The executable is a small entry and a few chunks with its dependencies inside: Node.js then
    // compiles a handful of modules rather than a few hundred, which takes ~200 ms off every start (the
    // SDK starts `skein exec` per turn). `--version` compiles none of them, and each subcommand only
    // its own (bin.ts and program.ts import them when needed). Native addons stay outside, loaded
    // from this package's dependencies.
    entry: ['src/bin.ts'],
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    splitting: true,
    // Its chunks (each subcommand's, and the code they share) are named apart from the library's output.
    esbuildOptions: (options) => {
      options.chunkNames = 'bin-[name]-[hash]';
    },
    noExternal: [/^(?!better-sqlite3$|@lydell\/node-pty$)/],
    external: ['better-sqlite3', '@lydell/node-pty'],
    // Bundled CommonJS dependencies call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __skeinCreateRequire } from 'node:module';\nconst require = __skeinCreateRequire(import.meta.url);" },
    onSuccess: () => copyFile(FS_HELPER, path.join('dist', 'fs-helper.js')),
  },
]);
