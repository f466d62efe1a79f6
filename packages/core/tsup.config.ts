import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

const entry = ['src/index.ts', 'src/testing/index.ts', 'src/host/index.ts'];
const base = libraryConfig({ entry });

// Three entries: the host API (public, versioned), the engine for Skein's own packages, and the
// test-thread builder scenario tests share.
export default defineConfig({ ...base, dts: { entry, compilerOptions: { ignoreDeprecations: '6.0' } } });
