// The command runner's edges: cancellation before and during a run, and what a hook leaves behind —
// a background child in its group is killed with it, one that escaped the group cannot hold the run.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const NO_PROC = process.platform !== 'linux' ? ' (skipped: reads /proc, Linux only)' : '';
import { HookEngine, matcherSelects, runCommandHook } from '../src/index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-hook-runner-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (command: string, signal?: AbortSignal, timeoutMs = 10_000) => runCommandHook({ command, cwd: root, env: { PATH: process.env.PATH }, input: '{}', timeoutMs, signal });

/** Whether `pid` still runs: not gone, and not a zombie no one has reaped yet. */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('runCommandHook', () => {
  it('never starts a hook whose turn was already interrupted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await run(`touch ${root}/ran`, controller.signal)).toEqual({ kind: 'failed', message: 'the hook was cancelled before it started' });
    expect(existsSync(path.join(root, 'ran'))).toBe(false);
  });

  it('stops a running hook when its turn is interrupted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    expect(await run(`sleep 5; touch ${root}/finished`, controller.signal)).toEqual({ kind: 'failed', message: 'the hook was cancelled' });
    expect(existsSync(path.join(root, 'finished'))).toBe(false);
  });

  it.skipIf(NO_PROC !== '')(`kills what the hook left running in its group, and does not wait for a child that escaped it${NO_PROC}`, async () => {
    const pidFile = path.join(root, 'child.pid');
    const exit = await run(`sleep 30 & echo $! > ${pidFile}; echo done`);
    expect(exit).toMatchObject({ kind: 'exited', code: 0, stdout: 'done\n' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(pid)).toBe(false);
    // setsid leaves the group, holding stdout open: the run still ends when the hook does.
    const escaped = await run(`setsid sleep 30 & echo $! > ${pidFile}; echo out`);
    expect(escaped).toMatchObject({ kind: 'exited', code: 0, stdout: 'out\n' });
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  });

  it('treats a matcher that does not compile as matching nothing, for extensions too', async () => {
    expect(matcherSelects('(', 'Bash')).toBe(false);
    const engine = new HookEngine({ hooks: [], env: {}, contributed: [{ extensionId: 'typo', contributor: { event: 'preToolUse', matcher: '(', run: () => ({ decision: 'block' }) } }] });
    expect(engine.handles('preToolUse', 'Bash')).toBe(false);
    const outcome = await engine.run({ event: 'preToolUse', input: { session_id: 's', transcript_path: null, cwd: root, hook_event_name: 'PreToolUse', model: 'm', permission_mode: 'default' }, matchValue: 'Bash', cwd: root, signal: new AbortController().signal });
    expect(outcome.blocked).toBeUndefined();
  });
});
