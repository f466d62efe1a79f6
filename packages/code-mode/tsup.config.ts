import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

export default defineConfig([
  // The two builds run at once: this one must not delete what the other writes.
  { ...libraryConfig({ entry: ['src/index.ts'] }), clean: ['!code-mode-host.cjs', '!code-mode-host.cjs.map'] },
  {
    // The host process: one CommonJS file with everything inside (the engine's WebAssembly too), so
    // it runs from wherever it is copied; the client spawns dist/code-mode-host.cjs.
    entry: { 'code-mode-host': 'src/host/host-main.ts' },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    noExternal: [/./],
    clean: false,
  },
]);
