// @skein/cli — the skein command, for embedding and tests. Re-exports only.

export { runSkein } from './program.js';
export type { ProgramIo } from './program.js';
export { formatFeatureList } from './commands/features-list.js';
