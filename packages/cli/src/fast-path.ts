// What a fast path is: a command run from its own flags alone, without the command tree (commander
// and every subcommand's modules), bundled apart so its start reads only its own code (bin.ts).
import type { MainHost } from './main.js';

/** Runs the command for `args` (what follows the command's name); undefined when the command tree must. */
export type FastPath = (args: readonly string[], host: MainHost) => Promise<number | undefined>;
