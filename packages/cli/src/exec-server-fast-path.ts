// `skein exec-server` without the command tree: a parent that spawns an exec-server waits for its
// URL, and commander and the program's modules cost that wait tens of ms (issue #18). Taken only when
// the flags parse as the exec-server's own; help, global options and bad flags go the full way, so
// they read exactly as before.
import { Readable } from 'node:stream';
import type { FastPath } from './fast-path.js';
import { asksForHelp, ownFlags } from './own-flags.js';

/** Runs the exec-server for `args` (what follows `exec-server`); undefined when the command tree must. */
export const runFastPath: FastPath = async (args) => {
  if (asksForHelp(args)) return undefined;
  const cwd = process.cwd();
  // The sandbox probe runs bwrap; started before the server's modules load, it runs while they compile.
  // The server's own probe call (same PATH and cwd) gets this one's answer from the probe's cache.
  const { probeSandbox } = await import('@skein/sandboxing/probe');
  void probeSandbox({ env: process.env, cwd }).catch(() => undefined);
  const { parseExecServerArgs, runExecServer } = await import('@skein/exec-server');
  const settings = ownFlags(args, parseExecServerArgs);
  if (settings === undefined) return undefined;
  const stdio = settings.listen === 'stdio' || settings.listen === 'stdio://';
  return runExecServer(settings, {
    cwd,
    env: process.env,
    // Standard input belongs to the client only in stdio mode (or when it signals shutdown).
    stdin: stdio || settings.exitOnStdinClose === true ? process.stdin : Readable.from([]),
    stdout: process.stdout,
    stderr: process.stderr,
  });
};
