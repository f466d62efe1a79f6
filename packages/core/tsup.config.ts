import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

const entry = ['src/index.ts', 'src/testing/index.ts'];
const base = libraryConfig({ entry });

// Two public entries: the engine, and the test-thread builder scenario tests share.
export default defineConfig({ ...base, dts: { entry, compilerOptions: { ignoreDeprecations: '6.0' } } });
