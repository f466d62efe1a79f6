import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  // TS 6 deprecates `baseUrl`, which tsup's dts step sets internally.
  dts: { entry: 'src/index.ts', compilerOptions: { ignoreDeprecations: '6.0' } },
});
