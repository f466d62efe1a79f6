import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/bin.ts'],
    format: ['esm'],
    // The two builds run at once: this one must not delete the helper the other writes.
    clean: ['!fs-helper.js'],
    sourcemap: true,
    target: 'node20',
    // TS 6 deprecates `baseUrl`, which tsup's dts step sets internally.
    dts: { entry: 'src/index.ts', compilerOptions: { ignoreDeprecations: '6.0' } },
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
