import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

// `./version` and `./executor` are entries of their own so that `skein --version` and `skein exec-server`
// load only what they use, not every schema.
const entry = ['src/index.ts', 'src/codex-version.ts', 'src/executor.ts'];
export default defineConfig(libraryConfig({ entry, dtsEntry: entry }));
