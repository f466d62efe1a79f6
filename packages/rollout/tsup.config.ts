import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  // TS 6 deprecates `baseUrl`, which tsup's dts step sets internally.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
});
