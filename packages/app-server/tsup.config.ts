import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

// `host-skills` is its own entry so `skein exec` can install the skills extension without loading
// the whole server (~20 ms of module evaluation at every exec; issue #18); `thread-store` likewise
// opens the configured thread store.
const entries = ['src/index.ts', 'src/skills/host-skills.ts', 'src/threads/open-thread-store.ts'];
export default defineConfig(libraryConfig({ entry: [...entries, 'src/bin.ts'], dtsEntry: entries }));
