// GitCheckpoints on this machine's real git: a snapshot goes to a private ref through a private
// index, and a restore writes files back, without touching the user's index, HEAD, branches or stash.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkpointSettings } from '@skein/config';
import { LocalProcesses } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitCheckpoints, shellRunner } from '../src/checkpoints/git-checkpoints.js';
import { CHECKPOINT_STORE_ID, pruneLocalCheckpoints } from '../src/checkpoints/thread-checkpoints.js';
import { captureCommand } from '../src/session/command-capture.js';

let dir: string;
let processes: LocalProcesses;
const settings = checkpointSettings({ max_file_bytes: 1024, max_dir_files: 5 }, undefined);
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

function checkpoints(shadowDir = '', cwd = dir): GitCheckpoints {
  const target = { processes, cwd: PathUri.fromNativePath(cwd, 'posix'), env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir }, sandbox: null, now: () => performance.now() };
  return new GitCheckpoints(shellRunner((argv, options) => captureCommand(target, argv, options)), { shadowDir });
}

/** Every file under the work tree (outside .git) with the hash of its bytes and its mode. */
function tree(root = dir): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) walk(full);
      else out[path.relative(root, full)] = entry.isSymbolicLink() ? 'link' : `${createHash('sha256').update(readFileSync(full)).digest('hex').slice(0, 12)} ${(statSync(full).mode & 0o777).toString(8)}`;
    }
  };
  walk(root);
  return out;
}

/** The user's git state, byte for byte: the index file, HEAD, refs (ours excluded), stash. */
function userGitState(): string {
  const index = existsSync(path.join(dir, '.git/index')) ? createHash('sha256').update(readFileSync(path.join(dir, '.git/index'))).digest('hex') : 'none';
  return [index, readFileSync(path.join(dir, '.git/HEAD'), 'utf8'), git('for-each-ref', '--format=%(refname) %(objectname)').split('\n').filter((line) => !line.startsWith('refs/skein/')).join('\n'), git('stash', 'list')].join('\n--\n');
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-checkpoint-'));
  processes = new LocalProcesses();
});
afterEach(async () => {
  await processes.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GitCheckpoints', () => {
  it('snapshots and restores tracked, untracked and small ignored files, leaving the user state alone', async () => {
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(dir, '.gitignore'), 'build/\nbig/\n*.log\n');
    writeFileSync(path.join(dir, 'tracked.txt'), 'one\n');
    writeFileSync(path.join(dir, 'script.sh'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'script.sh'), 0o755);
    git('add', '.');
    git('commit', '-qm', 'first');
    writeFileSync(path.join(dir, 'staged.txt'), 'staged\n');
    git('add', 'staged.txt');
    git('stash', 'push', '-q', '--', 'staged.txt');
    writeFileSync(path.join(dir, 'staged.txt'), 'staged again\n');
    git('add', 'staged.txt');
    writeFileSync(path.join(dir, 'untracked.txt'), 'u\n');
    writeFileSync(path.join(dir, 'huge-untracked.bin'), 'x'.repeat(4096));
    mkdirSync(path.join(dir, 'build'));
    writeFileSync(path.join(dir, 'build/out.js'), 'small ignored\n');
    mkdirSync(path.join(dir, 'big'));
    for (let index = 0; index < 8; index += 1) writeFileSync(path.join(dir, `big/${index}.dat`), 'many\n');
    writeFileSync(path.join(dir, 'debug.log'), 'ignored file\n');
    symlinkSync('tracked.txt', path.join(dir, 'link'));
    const userState = userGitState();
    const before = tree();

    const cp = checkpoints();
    const snapshot = await cp.snapshot('refs/skein/checkpoints/t/1/before', settings, { message: 'before', prunePrefix: 'refs/skein/checkpoints/', nowMs: Date.now() });
    if (!('commit' in snapshot)) throw new Error(snapshot.unavailable);
    expect(snapshot.root).toBe(dir);
    expect(snapshot.skipped).toEqual(['huge-untracked.bin']);
    expect(snapshot.skippedIgnored).toEqual(['big/']);
    expect(git('ls-tree', '-r', '--name-only', snapshot.commit).trim().split('\n').sort()).toEqual(['.gitignore', 'build/out.js', 'debug.log', 'link', 'script.sh', 'staged.txt', 'tracked.txt', 'untracked.txt']);
    expect(userGitState()).toBe(userState);

    // The turn: edits, creates in a new folder, deletes, changes a mode.
    writeFileSync(path.join(dir, 'tracked.txt'), 'two\n');
    mkdirSync(path.join(dir, 'src/deep'), { recursive: true });
    writeFileSync(path.join(dir, 'src/deep/new.ts'), 'new\n');
    rmSync(path.join(dir, 'untracked.txt'));
    rmSync(path.join(dir, 'build/out.js'));
    chmodSync(path.join(dir, 'script.sh'), 0o644);
    const after = await cp.snapshot('refs/skein/checkpoints/t/1/after', settings, { message: 'after', prunePrefix: '', nowMs: Date.now() });
    if (!('commit' in after)) throw new Error(after.unavailable);
    const changed = await cp.changes(snapshot.commit, after.commit);
    expect(Object.fromEntries(changed)).toEqual({ 'build/out.js': 'D', 'script.sh': 'M', 'src/deep/new.ts': 'A', 'tracked.txt': 'M', 'untracked.txt': 'D' });
    const back = await cp.changes(after.commit, snapshot.commit);
    const patches = await cp.patches(after.commit, snapshot.commit, ['tracked.txt']);
    expect(patches.get('tracked.txt')).toContain('-two\n+one');
    const failed = await cp.restore(snapshot.commit, [...back].filter(([, kind]) => kind !== 'D').map(([file]) => file), [...back].filter(([, kind]) => kind === 'D').map(([file]) => file));
    expect(failed).toEqual([]);
    expect(tree()).toEqual(before);
    expect(existsSync(path.join(dir, 'src'))).toBe(false);
    expect(userGitState()).toBe(userState);

    await cp.prune('refs/skein/checkpoints/t/');
    expect(git('for-each-ref', 'refs/skein/')).toBe('');
  });

  it('leaves a folder the repository ignores to a private repository of its own', async () => {
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(dir, '.gitignore'), 'scratch/\n');
    mkdirSync(path.join(dir, 'scratch'));
    const inside = path.join(dir, 'scratch');
    expect(await checkpoints('', inside).snapshot('refs/skein/checkpoints/t/1/before', settings, { message: 'm', prunePrefix: '', nowMs: Date.now() })).toEqual({ unavailable: `the git repository at ${dir} ignores this folder` });
    const shadow = await checkpoints(path.join(dir, '.git', 'shadow-for-test'), inside).snapshot('refs/skein/checkpoints/t/1/before', settings, { message: 'm', prunePrefix: '', nowMs: Date.now() });
    expect(shadow).toMatchObject({ root: inside });
  });

  it('says there is nothing to checkpoint outside git, and uses a private repository when asked to', async () => {
    writeFileSync(path.join(dir, 'notes.txt'), 'a\n');
    const unavailable = await checkpoints().snapshot('refs/skein/checkpoints/t/1/before', settings, { message: 'm', prunePrefix: '', nowMs: Date.now() });
    expect(unavailable).toEqual({ unavailable: 'not a git work tree' });
    const shadowDir = mkdtempSync(path.join(tmpdir(), 'skein-shadow-'));
    try {
      const cp = checkpoints(path.join(shadowDir, 'repo'));
      const before = await cp.snapshot('refs/skein/checkpoints/t/1/before', settings, { message: 'm', prunePrefix: '', nowMs: Date.now() });
      if (!('commit' in before)) throw new Error(before.unavailable);
      writeFileSync(path.join(dir, 'notes.txt'), 'b\n');
      writeFileSync(path.join(dir, 'new.txt'), 'n\n');
      const now = await cp.snapshot('refs/skein/checkpoints/t/1/after', settings, { message: 'm', prunePrefix: '', nowMs: Date.now() });
      if (!('commit' in now)) throw new Error(now.unavailable);
      expect(Object.fromEntries(await cp.changes(now.commit, before.commit))).toEqual({ 'new.txt': 'D', 'notes.txt': 'M' });
      expect(await cp.restore(before.commit, ['notes.txt'], ['new.txt'])).toEqual([]);
      expect(tree()).toEqual({ 'notes.txt': tree()['notes.txt'] });
      expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('a\n');
      expect(existsSync(path.join(dir, '.git'))).toBe(false);
    } finally {
      rmSync(shadowDir, { recursive: true, force: true });
    }
  });
});

describe('pruneLocalCheckpoints', () => {
  it("deletes a stored thread's refs on this machine from the records its file holds", async () => {
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    const snapshot = await checkpoints().snapshot('refs/skein/checkpoints/thread-1/turn-1/before', settings, { message: 'm', prunePrefix: '', nowMs: Date.now() });
    if (!('commit' in snapshot)) throw new Error(snapshot.unavailable);
    await checkpoints().snapshot('refs/skein/checkpoints/thread-2/turn-1/before', settings, { message: 'm', prunePrefix: '', nowMs: Date.now() });
    const record = { turnId: 'turn-1', environmentId: 'local', root: dir, shadowDir: '', before: snapshot.commit, takenAtMs: 1 };
    const pruned = await pruneLocalCheckpoints('thread-1', [{ extensionId: CHECKPOINT_STORE_ID, value: record }, { extensionId: 'other', value: record }, { extensionId: CHECKPOINT_STORE_ID, value: { ...record, environmentId: 'remote' } }], { processes, env: { PATH: process.env['PATH'] }, now: () => performance.now() });
    expect(pruned).toBe(1);
    expect(git('for-each-ref', '--format=%(refname)', 'refs/skein/').trim()).toBe('refs/skein/checkpoints/thread-2/turn-1/before');
  });
});

/** A file of `size` bytes that takes no disk: created empty, then extended. */
function sparseFile(file: string, size: number): void {
  writeFileSync(file, '');
  truncateSync(file, size);
}

describe('a large repository', () => {
  it('checkpoints 10,000 tracked files beside a 200 MB ignored folder, leaving the folder out', async () => {
    git('init', '-q', '-b', 'main');
    // No background gc racing the test's cleanup after 10,000 objects.
    git('config', 'gc.auto', '0');
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\nbuild/\n');
    for (let folder = 0; folder < 100; folder += 1) {
      mkdirSync(path.join(dir, 'src', String(folder)), { recursive: true });
      for (let file = 0; file < 100; file += 1) writeFileSync(path.join(dir, 'src', String(folder), `${file}.ts`), `export const value = ${folder * 100 + file};\n`);
    }
    git('add', '.');
    git('commit', '-qm', 'ten thousand files');
    // 2,000 files of 100 KB (sparse: the test writes no 200 MB) and one 150 MB build output.
    mkdirSync(path.join(dir, 'node_modules', 'big'), { recursive: true });
    for (let file = 0; file < 2000; file += 1) sparseFile(path.join(dir, 'node_modules', 'big', `${file}.js`), 100 * 1024);
    mkdirSync(path.join(dir, 'build'));
    sparseFile(path.join(dir, 'build', 'bundle.bin'), 150 * 1024 * 1024);
    const defaults = checkpointSettings(undefined, undefined);

    const cp = checkpoints();
    const before = await cp.snapshot('refs/skein/checkpoints/t/1/before', defaults, { message: 'm', prunePrefix: '', nowMs: Date.now() });
    if (!('commit' in before)) throw new Error(before.unavailable);
    expect(before.skipped).toEqual([]);
    expect([...before.skippedIgnored].sort()).toEqual(['build/bundle.bin', 'node_modules/']);
    expect(git('ls-tree', '-r', '--name-only', before.commit).trim().split('\n')).toHaveLength(10_001);
    // No blob of the ignored folder or the build output went into the repository.
    const sizes = git('cat-file', '--batch-all-objects', '--batch-check=%(objecttype) %(objectsize)').trim().split('\n');
    expect(sizes.filter((line) => line.startsWith('blob ') && Number(line.slice(5)) >= 100 * 1024)).toEqual([]);

    writeFileSync(path.join(dir, 'src', '7', '7.ts'), 'changed\n');
    rmSync(path.join(dir, 'src', '8'), { recursive: true });
    const after = await cp.snapshot('refs/skein/checkpoints/t/1/after', defaults, { message: 'm', prunePrefix: '', nowMs: Date.now() });
    if (!('commit' in after)) throw new Error(after.unavailable);
    const back = await cp.changes(after.commit, before.commit);
    expect(back.size).toBe(101);
    await cp.restore(before.commit, [...back.keys()], []);
    expect(readFileSync(path.join(dir, 'src', '7', '7.ts'), 'utf8')).toBe('export const value = 707;\n');
    expect(readdirSync(path.join(dir, 'src', '8'))).toHaveLength(100);
    expect(statSync(path.join(dir, 'build', 'bundle.bin')).size).toBe(150 * 1024 * 1024);
  }, 60_000);
});
