// ThreadCheckpoints against real git: what a revert must not do, found by review — delete a file the
// opening checkpoint left out, take the user's later work with a turn that never closed, restore into
// the folder the environment works in now instead of the one the turn wrote, or overwrite an edit made
// between two dropped turns.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkpointSettings, type CheckpointSettings } from '@skein/config';
import { LocalProcesses } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellRunner } from '../src/checkpoints/git-checkpoints.js';
import { memoryCheckpointStore, ThreadCheckpoints } from '../src/checkpoints/thread-checkpoints.js';
import { captureCommand } from '../src/session/command-capture.js';

let dir: string;
let processes: LocalProcesses;
const warnings: string[] = [];
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

/** A thread's checkpoints on one local environment whose cwd is `cwd()` (it may move between turns). */
function threadCheckpoints(cwd: () => string, settings: CheckpointSettings = checkpointSettings(undefined, undefined)): ThreadCheckpoints {
  let clock = 1_000;
  return new ThreadCheckpoints({
    threadId: 'thread',
    store: memoryCheckpointStore(),
    settings: () => settings,
    homeDir: () => dir,
    cwdOf: cwd,
    nowMs: () => (clock += 1_000),
    warn: (message) => warnings.push(message),
    target: () => ({
      runnerAt: (at) => shellRunner((argv, options) => captureCommand({ processes, cwd: PathUri.fromNativePath(at ?? cwd(), 'posix'), env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir }, sandbox: null, now: () => performance.now() }, argv, options)),
    }),
  });
}

async function turn(checkpoints: ThreadCheckpoints, turnId: string, work: () => void, close = true): Promise<void> {
  const taken = checkpoints.forTurn(turnId);
  await taken.beforeWrite('local');
  work();
  if (close) await taken.finish();
}

function repository(at: string): string {
  mkdirSync(at, { recursive: true });
  git(at, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(at, 'tracked.txt'), 'committed\n');
  git(at, 'add', '.');
  git(at, 'commit', '-qm', 'first');
  return at;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-thread-checkpoints-'));
  processes = new LocalProcesses();
  warnings.length = 0;
});
afterEach(async () => {
  await processes.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a revert', () => {
  it('never deletes what the opening checkpoint left out, even when the turn made it small enough to keep', async () => {
    const repo = repository(path.join(dir, 'repo'));
    const settings = checkpointSettings({ max_file_bytes: 100, max_dir_files: 3 }, undefined);
    writeFileSync(path.join(repo, 'data.csv'), 'x'.repeat(500));
    mkdirSync(path.join(repo, 'fixtures'));
    for (const name of ['a', 'b', 'c', 'd']) writeFileSync(path.join(repo, 'fixtures', name), name);
    const checkpoints = threadCheckpoints(() => repo, settings);
    await turn(checkpoints, 't1', () => {
      writeFileSync(path.join(repo, 'data.csv'), 'trimmed');
      rmSync(path.join(repo, 'fixtures', 'd'));
      writeFileSync(path.join(repo, 'tracked.txt'), 'changed\n');
    });

    const [restore] = await checkpoints.restore(['t1'], { force: true });

    expect(readFileSync(path.join(repo, 'tracked.txt'), 'utf8')).toBe('committed\n');
    expect(readFileSync(path.join(repo, 'data.csv'), 'utf8')).toBe('trimmed');
    expect(['a', 'b', 'c'].every((name) => existsSync(path.join(repo, 'fixtures', name)))).toBe(true);
    expect(restore?.conflicts).toEqual(['data.csv', 'fixtures/a', 'fixtures/b', 'fixtures/c'].map((file) => path.join(repo, file)));
    expect(warnings).toEqual([expect.stringContaining("checkpoints on 'local' leave out 2 untracked entries")]);
  });

  it("keeps what changed after a turn that never closed: the turn's work and the user's cannot be told apart", async () => {
    const repo = repository(path.join(dir, 'repo'));
    const checkpoints = threadCheckpoints(() => repo);
    await turn(checkpoints, 't1', () => writeFileSync(path.join(repo, 'agent.txt', ), 'agent'), false);
    writeFileSync(path.join(repo, 'tracked.txt'), 'the user edited\n');
    writeFileSync(path.join(repo, 'todo.txt'), 'the user wrote\n');

    const [restore] = await checkpoints.restore(['t1'], { force: false });

    expect(readFileSync(path.join(repo, 'tracked.txt'), 'utf8')).toBe('the user edited\n');
    expect(existsSync(path.join(repo, 'todo.txt'))).toBe(true);
    expect(restore).toMatchObject({ restored: [], conflicts: ['agent.txt', 'todo.txt', 'tracked.txt'].map((file) => path.join(repo, file)) });
  });

  it('keeps a file the user changed between two dropped turns', async () => {
    const repo = repository(path.join(dir, 'repo'));
    const checkpoints = threadCheckpoints(() => repo);
    await turn(checkpoints, 't1', () => writeFileSync(path.join(repo, 'a.txt'), 'a\n'));
    writeFileSync(path.join(repo, 'a.txt'), 'a\nthe user\n');
    await turn(checkpoints, 't2', () => writeFileSync(path.join(repo, 'a.txt'), 'a\nthe user\nthe agent\n'));

    const [restore] = await checkpoints.restore(['t1', 't2'], { force: false });

    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('a\nthe user\nthe agent\n');
    expect(restore?.conflicts).toEqual([path.join(repo, 'a.txt')]);
  });

  it('restores in the folder the turn wrote, wherever the environment works now', async () => {
    const first = repository(path.join(dir, 'first'));
    const second = repository(path.join(dir, 'second'));
    let cwd = first;
    const checkpoints = threadCheckpoints(() => cwd);
    await turn(checkpoints, 't1', () => writeFileSync(path.join(first, 'made.txt'), 'first'));
    cwd = second;
    await turn(checkpoints, 't2', () => writeFileSync(path.join(second, 'made.txt'), 'second'));

    const restores = await checkpoints.restore(['t1', 't2'], { force: false });

    expect(restores.map((restore) => [restore.root, restore.restored.map((file) => file.path)])).toEqual([
      [first, [path.join(first, 'made.txt')]],
      [second, [path.join(second, 'made.txt')]],
    ]);
    expect(existsSync(path.join(first, 'made.txt')) || existsSync(path.join(second, 'made.txt'))).toBe(false);
  });
});

describe('a checkpoint', () => {
  it('survives an untracked name starting with a dash and a repository inside with nothing committed', async () => {
    const repo = repository(path.join(dir, 'repo'));
    writeFileSync(path.join(repo, '-fprint'), 'dash');
    mkdirSync(path.join(repo, 'sub'));
    git(path.join(repo, 'sub'), 'init', '-q');
    writeFileSync(path.join(repo, 'sub', 'z'), 'z');
    const checkpoints = threadCheckpoints(() => repo);
    await turn(checkpoints, 't1', () => writeFileSync(path.join(repo, 'tracked.txt'), 'changed\n'));

    const [restore] = await checkpoints.restore(['t1'], { force: false });

    expect(restore).toMatchObject({ error: undefined, restored: [{ path: path.join(repo, 'tracked.txt'), kind: 'update' }] });
    // find never read the name as an option: nothing it would have written exists.
    expect(existsSync(path.join(repo, '-prune'))).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('(-fprint, sub/)')]);
  });
});
