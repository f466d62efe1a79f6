import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

// The host process is a program of its own beside the library (the client spawns dist/host-main.js).
export default defineConfig(libraryConfig({ entry: ['src/index.ts', 'src/host/host-main.ts'] }));
