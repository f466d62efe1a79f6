#!/usr/bin/env node
// The `skein` executable: the one place that reads process globals and exits.
import { VERSION_LINE } from './version.js';

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

const argv = process.argv.slice(2);
// `--version` alone needs none of the command tree: answer it before loading the rest (issue #18).
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION_LINE}\n`);
} else if (argv[0] === 'features' && argv[1] === 'list') {
  const { runFeaturesListFastPath } = await import('./features-list-fast-path.js');
  process.exitCode = (await runFeaturesListFastPath(argv.slice(2))) ?? (await runProgram(argv));
} else if (argv[0] === 'app-server') {
  // As exec-server below: its own flags alone skip the command tree (see app-server-fast-path.ts).
  const { runAppServerFastPath } = await import('./app-server-fast-path.js');
  process.exitCode = (await runAppServerFastPath(argv.slice(1))) ?? (await runProgram(argv));
} else if (argv[0] === 'exec-server') {
  // Its own flags alone skip the command tree (see exec-server-fast-path.ts); anything else takes it.
  const { runExecServerFastPath } = await import('./exec-server-fast-path.js');
  process.exitCode = (await runExecServerFastPath(argv.slice(1))) ?? (await runProgram(argv));
} else {
  process.exitCode = await runProgram(argv);
}

async function runProgram(args: string[]): Promise<number> {
  const { runSkein } = await import('./program.js');
  return runSkein(args, {
    cwd: process.cwd(),
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdinIsTerminal: process.stdin.isTTY === true,
    stderrIsTerminal: process.stderr.isTTY === true,
    onTermination,
    // fetch parses HTTP with WebAssembly, and V8 recompiles that in the background with its optimising
    // tier; Node waits for background compiles before it exits, which cost `exec` ~80 ms after its
    // answer (issue #18). The model request no longer uses fetch, but an extension's tool may; one
    // turn gains nothing from the optimised tier. The servers keep V8's default.
    shortLived: async () => (await import('node:v8')).setFlagsFromString('--liftoff-only'),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  });
}
