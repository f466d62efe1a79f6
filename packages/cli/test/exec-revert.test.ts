// `skein exec resume <id> --revert <turn>`: a script drops a turn and gets its files back, is told
// on stderr what was restored and what was kept, and a misuse of the flags is refused before anything runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';

let fixture: ExecScratch;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-revert-');
});
afterEach(() => fixture.cleanup());

/** The turn ids the thread's rollout recorded, oldest first. */
function recordedTurnIds(home: string): string[] {
  const file = readdirSync(path.join(home, 'sessions'), { recursive: true, encoding: 'utf8' }).find((name) => name.endsWith('.jsonl'))!;
  return readFileSync(path.join(home, 'sessions', file), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { payload: { type?: string; turn_id?: string } })
    .flatMap((line) => (line.payload.type === 'task_started' && line.payload.turn_id !== undefined ? [line.payload.turn_id] : []));
}

describe('exec resume --revert', () => {
  it('drops the turn, restores its files, and reports a file the user changed since', async () => {
    const { repo, home, server } = fixture;
    rmSync(path.join(repo, '.git'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(path.join(repo, 'notes.txt'), 'mine\n');
    server.expect([sse(functionCall('exec_command', { cmd: 'printf made > made.txt && printf agent > notes.txt && printf other > other.txt' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const first = await fixture.skein(['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', 'Make files.']);
    expect(first.code).toBe(0);
    const threadId = (jsonLines(first.stdout)[0] as { thread_id: string }).thread_id;
    const [turnId] = recordedTurnIds(home);
    writeFileSync(path.join(repo, 'other.txt'), 'the user changed it\n');

    const reverted = await fixture.skein(['exec', 'resume', threadId, '--revert', turnId!]);

    // A kept file makes the run fail, so a script notices; the rest is back.
    expect(reverted.code).toBe(1);
    expect(reverted.stderr).toContain(`reverted 1 turn(s) from ${turnId}`);
    expect(reverted.stderr).toContain('local: restored 2 file(s)');
    expect(reverted.stderr).toContain(`local: kept ${path.join(repo, 'other.txt')}`);
    expect(existsSync(path.join(repo, 'made.txt'))).toBe(false);
    expect(readFileSync(path.join(repo, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(path.join(repo, 'other.txt'), 'utf8')).toBe('the user changed it\n');
    // Only the first turn's two requests: reverting alone asks the model nothing.
    expect(server.requests).toHaveLength(2);

    const again = await fixture.skein(['exec', 'resume', threadId, '--revert', turnId!]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`turn not found: ${turnId}`);
  });

  it('refuses --force without --revert', async () => {
    const run = await fixture.skein(['exec', 'resume', '0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d', '--force', 'hi']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--keep-files and --force go with --revert <turn-id>');
  });
});
