import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

// `./version` is its own entry so that `skein --version` can name the Codex version without loading every schema.
export default defineConfig(libraryConfig({ entry: ['src/index.ts', 'src/codex-version.ts'], dtsEntry: ['src/index.ts', 'src/codex-version.ts'] }));
