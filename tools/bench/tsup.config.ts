import { defineConfig } from 'tsup';

// Every src/*.bench.ts is its own program: `pnpm --filter @skein/bench bench [name…]` runs them.
export default defineConfig({
  entry: ['src/*.bench.ts'],
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
});
