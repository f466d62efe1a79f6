// The `skein` program behind its executable (bin.ts), bundled as one CommonJS file (skein.cjs) that
// bin.ts runs through V8's code cache (code-cache.ts) when no fast path took the command.
// First: every schema the program builds is built jitless.
import './zod-jitless.js';
import type { ModuleImporter } from '@skein/core';
import { runSkein } from './program.js';

const cleanups = new Set<() => Promise<void>>();
let listening = false;
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/** Installs the signal handlers on first use, so commands that forward signals themselves keep them. */
function onTermination(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  if (!listening) {
    listening = true;
    for (const [signal, number] of Object.entries(SIGNALS)) {
      process.once(signal, () => {
        void Promise.allSettled([...cleanups].map((run) => run())).then(() => process.exit(128 + number));
      });
    }
  }
  return () => cleanups.delete(cleanup);
}

/** What the executable lends the program. */
export interface MainHost {
  /** Readies the process for a command that exits soon after its last model request (`exec`). */
  shortLived(): void;
  /** `import()` as a module Node loaded itself does it: code run from V8's code cache has none of its own. */
  importModule: ModuleImporter;
}

/** Runs `skein` with `argv` (the arguments after the executable) and answers its exit code. */
export function main(argv: readonly string[], host: MainHost): Promise<number> {
  return runSkein(argv, {
    cwd: process.cwd(),
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdinIsTerminal: process.stdin.isTTY === true,
    stderrIsTerminal: process.stderr.isTTY === true,
    onTermination,
    importModule: host.importModule,
    shortLived: () => host.shortLived(),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  });
}
