import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

export default defineConfig([
  {
    ...libraryConfig({ entry: ['src/index.ts', 'src/bin.ts'] }),
    // The two builds run at once: this one must not delete the helper the other writes.
    clean: ['!fs-helper.js'],
  },
  {
    // The sandboxed fs helper carries everything it needs in one file: inside a sandbox it may be
    // able to read only Node.js and itself, not node_modules.
    entry: ['src/fs-helper.ts'],
    format: ['esm'],
    sourcemap: false,
    target: 'node20',
    noExternal: [/.*/],
  },
]);
