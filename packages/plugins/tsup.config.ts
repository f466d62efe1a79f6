import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(libraryConfig());
