#!/usr/bin/env node
// The `skein` executable: the one place that reads process globals and exits.
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

const code = await runSkein(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdinIsTerminal: process.stdin.isTTY === true,
  stderrIsTerminal: process.stderr.isTTY === true,
  onTermination,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
});
process.exitCode = code;
