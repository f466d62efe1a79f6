import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(libraryConfig({ entry: ['src/index.ts', 'src/bin.ts'] }));
