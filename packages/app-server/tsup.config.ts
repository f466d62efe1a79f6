import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

// `host-skills` is its own entry so `skein exec` can install the skills extension without loading
// the whole server (~20 ms of module evaluation at every exec; issue #18).
export default defineConfig(libraryConfig({ entry: ['src/index.ts', 'src/bin.ts', 'src/skills/host-skills.ts'], dtsEntry: ['src/index.ts', 'src/skills/host-skills.ts'] }));
