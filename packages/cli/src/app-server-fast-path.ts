// `skein app-server` without the command tree: commander and the program's modules cost a client's
// first `initialize` ~15 ms (issue #18). Taken only when the flags parse as the app-server's own
// (`parseAppServerArgs`, the flags of its own bin); help and bad flags go the full way, so they read
// exactly as before.
// First: every schema the program builds is built jitless.
import './zod-jitless.js';
import type { FastPath } from './fast-path.js';
import { asksForHelp, ownFlags } from './own-flags.js';

/** Runs the app-server for `args` (what follows `app-server`); undefined when the command tree must. */
export const runFastPath: FastPath = async (args, host) => {
  if (asksForHelp(args)) return undefined;
  const { parseAppServerArgs, runAppServer } = await import('@skein/app-server');
  const settings = ownFlags(args, parseAppServerArgs);
  if (settings === undefined) return undefined;
  return runAppServer(settings, {
    cwd: process.cwd(),
    env: process.env,
    importModule: host.importModule,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
};
