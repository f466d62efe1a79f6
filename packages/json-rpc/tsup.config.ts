import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

const base = libraryConfig({ entry: ['src/index.ts', 'src/framing.ts'] });

// Two public entries, both with declarations: the whole transport, and framing alone.
export default defineConfig({ ...base, dts: { entry: ['src/index.ts', 'src/framing.ts'], compilerOptions: { ignoreDeprecations: '6.0' } } });
