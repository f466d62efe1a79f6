// Runs one command hook: `sh -c <command>` in the thread's cwd with the user's own permissions (as
// Codex runs hooks: outside the sandbox), the event's JSON on stdin, a deadline, and bounded output.
// A hook that cannot start, overruns its deadline, prints too much or is cancelled is a failed run,
// never a crash or a hang: the run ends when the hook's process does, whatever it left behind.
import { spawn } from 'node:child_process';

/** The most a hook may print, stdout and stderr together, before it is stopped. */
export const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;
// How long output a hook's exited process left open (a background child) is waited for.
const DRAIN_MS = 200;

/** How a command hook ended. */
export type CommandHookExit =
  | { readonly kind: 'exited'; readonly code: number; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'failed'; readonly message: string };

/** What the runner needs. */
export interface CommandHookRun {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly input: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/** Runs the hook to its end (or its deadline, or cancellation). */
export function runCommandHook(run: CommandHookRun): Promise<CommandHookExit> {
  if (run.signal?.aborted === true) return Promise.resolve({ kind: 'failed', message: 'the hook was cancelled before it started' });
  return new Promise((resolve) => {
    // Its own process group, so a deadline stops whatever the hook started too.
    const child = spawn('/bin/sh', ['-c', run.command], { cwd: run.cwd, env: run.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let bytes = 0;
    let stopped: string | undefined;
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const finish = (exit: CommandHookExit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      run.signal?.removeEventListener('abort', onAbort);
      // Output a child outside the group still holds open is not waited for.
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(exit);
    };
    const stop = (why: string) => {
      if (stopped !== undefined) return;
      stopped = why;
      killGroup();
      finish({ kind: 'failed', message: `the hook ${why}` });
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_HOOK_OUTPUT_BYTES) return stop(`printed more than ${MAX_HOOK_OUTPUT_BYTES} bytes`);
      into.push(chunk);
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    // A hook that does not read its input must not fail the run.
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.input);
    const timer = setTimeout(() => stop(`did not finish within ${Math.round(run.timeoutMs / 1000)} s`), run.timeoutMs);
    let drain: NodeJS.Timeout | undefined;
    const onAbort = () => stop('was cancelled');
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      if (code === null) return finish({ kind: 'failed', message: `the hook was killed by ${signal ?? 'a signal'}` });
      finish({ kind: 'exited', code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    };
    child.on('error', (error) => finish({ kind: 'failed', message: `could not start: ${error.message}` }));
    // The hook is done when its process is: what it started in the background goes with its group,
    // and output still in flight is read for a moment before the run ends.
    child.on('exit', (code, signal) => {
      killGroup();
      drain = setTimeout(() => exited(code, signal), DRAIN_MS);
      child.once('close', () => exited(code, signal));
    });
  });
}
