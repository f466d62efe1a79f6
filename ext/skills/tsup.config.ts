import { defineConfig } from 'tsup';

// The workspace's library build (tools/build-config), spelled out: an extension imports nothing of
// Skein's but @skein/extension-api, its build config included.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  dts: { entry: 'src/index.ts', compilerOptions: { ignoreDeprecations: '6.0' } },
});
