import { defineConfig } from 'tsup';

// One program: `node dist/demo.js` (the root `pnpm demo` builds it first).
export default defineConfig({
  entry: ['src/demo.ts'],
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
});
