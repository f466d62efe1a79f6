import { libraryConfig } from '@skein/build-config/tsup';
import { defineConfig } from 'tsup';

// `probe` is an entry of its own: a host that probes at start (skein exec-server) can start bwrap
// before the policy schemas and the rest of this package load (issue #18).
const entry = ['src/index.ts', 'src/probe.ts'];
export default defineConfig(libraryConfig({ entry, dtsEntry: entry }));
