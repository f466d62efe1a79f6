// Escape attempts against the real bubblewrap sandbox: each must be denied on the host, while writing
// inside the workspace keeps working. Skipped (with the probe's reason) only where bwrap cannot run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreSandboxPolicy } from '@skein/protocol';
import { SandboxUnavailableError, prepareSandboxedSpawn } from '../src/index.js';
import { capability, runConfined, scratch, sh, skipReason } from './sandbox-harness.js';

// Only the workspace is writable, so "outside" (a sibling under the same temp root) must stay read-only.
const workspaceOnly: CoreSandboxPolicy = { type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: true, exclude_slash_tmp: true };

let box: ReturnType<typeof scratch>;
beforeEach(() => {
  box = scratch();
});
afterEach(() => box.dispose());

describe.skipIf(skipReason !== '')(`escape attempts under bubblewrap${skipReason}`, () => {
  it('lets the command write inside the workspace', async () => {
    const outcome = await runConfined({ policy: workspaceOnly, cwd: box.work }, sh('echo made > inside.txt && mkdir -p sub/dir && echo deep > sub/dir/f'));
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.spec.sandboxed).toBe(true);
    expect(readFileSync(path.join(box.work, 'inside.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(path.join(box.work, 'sub/dir/f'), 'utf8')).toBe('deep\n');
  });

  it('denies writing outside the writable roots', async () => {
    const outcome = await runConfined({ policy: workspaceOnly, cwd: box.work }, sh(`echo x > ${box.outside}/escape.txt; echo rc=$?; mkdir ${box.outside}/d; echo rc=$?`));
    expect(outcome.stdout).toBe('rc=2\nrc=1\n');
    expect(outcome.stderr).toContain('Read-only file system');
    expect(readdirSync(box.outside)).toEqual([]);
  });

  it('keeps /tmp writable by default, as Codex does', async () => {
    const policy: CoreSandboxPolicy = { type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false };
    const outcome = await runConfined({ policy, cwd: box.work }, sh(`echo x > ${box.outside}/via-tmp.txt && echo ok`));
    expect(outcome.stdout).toBe('ok\n');
    expect(existsSync(path.join(box.outside, 'via-tmp.txt'))).toBe(true);
  });

  it('denies writing into .git, its hooks, and removing it', async () => {
    execFileSync('git', ['init', '-q', box.work]);
    const outcome = await runConfined(
      { policy: workspaceOnly, cwd: box.work },
      sh('echo evil > .git/hooks/pre-commit; echo rc=$?; echo x > .git/HEAD; echo rc=$?; rm -rf .git 2>/dev/null; echo rc=$?; echo ok > tracked.txt; echo rc=$?'),
    );
    expect(outcome.stdout).toBe('rc=2\nrc=2\nrc=1\nrc=0\n');
    expect(existsSync(path.join(box.work, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(path.join(box.work, '.git/HEAD'), 'utf8')).toMatch(/^ref: refs\/heads\//);
  });

  it('keeps a .git pointer file and the gitdir it names read-only', async () => {
    const main = path.join(box.outside, 'main');
    const gitdir = path.join(main, '.git', 'worktrees', 'work');
    mkdirSync(gitdir, { recursive: true });
    writeFileSync(path.join(gitdir, 'HEAD'), 'ref: refs/heads/wt\n');
    writeFileSync(path.join(box.work, '.git'), `gitdir: ${gitdir}\n`);
    // The main checkout is writable too, so only the pointer rule keeps its gitdir safe.
    const policy: CoreSandboxPolicy = { ...workspaceOnly, writable_roots: [path.join(box.outside, 'main')] };
    const outcome = await runConfined(
      { policy, cwd: box.work },
      sh(`echo gitdir: /elsewhere > .git; echo rc=$?; echo x > ${gitdir}/HEAD; echo rc=$?; echo ok > ${main}/file; echo rc=$?`),
    );
    expect(outcome.stdout).toBe('rc=2\nrc=2\nrc=0\n');
    expect(readFileSync(path.join(box.work, '.git'), 'utf8')).toBe(`gitdir: ${gitdir}\n`);
    expect(readFileSync(path.join(gitdir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/wt\n');
  });

  it('denies writing through a symlink planted in the workspace', async () => {
    symlinkSync(box.outside, path.join(box.work, 'planted'));
    const outcome = await runConfined(
      { policy: workspaceOnly, cwd: box.work },
      sh(`echo x > planted/a.txt; echo rc=$?; ln -s ${box.outside} fresh && echo x > fresh/b.txt; echo rc=$?`),
    );
    expect(outcome.stdout).toBe('rc=2\nrc=2\n');
    expect(readdirSync(box.outside)).toEqual([]);
  });

  it('refuses to run when a protected path is a symlink the command could replace', async () => {
    const decoy = path.join(box.outside, 'decoy');
    mkdirSync(decoy);
    symlinkSync(decoy, path.join(box.work, '.codex'));
    const attempt = prepareSandboxedSpawn({ policy: workspaceOnly, cwd: box.work, env: process.env }, ['true'], { capability });
    await expect(attempt).rejects.toThrow(SandboxUnavailableError);
    await expect(attempt).rejects.toMatchObject({ code: 'UnenforceablePath' });
    expect(readdirSync(decoy)).toEqual([]);
  });

  it('denies creating missing protected paths, and leaves no trace of the masks', async () => {
    const outcome = await runConfined(
      { policy: workspaceOnly, cwd: box.work },
      sh('for p in .git .agents .codex .aws; do mkdir -p $p/x 2>/dev/null; echo "$p mkdir=$?"; done; ln -s /etc .codex 2>/dev/null; echo "ln=$?"; echo [x] > .codex/config.toml 2>/dev/null; echo "write=$?"'),
    );
    expect(outcome.stdout).toBe('.git mkdir=1\n.agents mkdir=1\n.codex mkdir=1\n.aws mkdir=1\nln=1\nwrite=2\n');
    expect(readdirSync(box.work)).toEqual([]);
  });

  it('denies a TCP connection to a loopback server, and allows it when the policy grants network', async () => {
    const server: Server = createServer((socket) => socket.end('hello\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const client = `require('net').connect(${port}, '127.0.0.1').on('data', (d) => { process.stdout.write('got ' + d); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })`;
    try {
      const denied = await runConfined({ policy: workspaceOnly, cwd: box.work }, [process.execPath, '-e', client]);
      expect(denied.stdout).toBe('EPERM\n');
      expect(denied.code).toBe(3);
      const allowed = await runConfined({ policy: { ...workspaceOnly, network_access: true }, cwd: box.work }, [process.execPath, '-e', client]);
      expect(allowed.stdout).toBe('got hello\n');
      expect(allowed.code).toBe(0);
    } finally {
      server.close();
    }
  });

  it('denies every write in read-only mode, the cwd included', async () => {
    const outcome = await runConfined({ policy: { type: 'read-only' }, cwd: box.work }, sh(`touch here.txt; echo rc=$?; touch /tmp/skein-ro-$$; echo rc=$?; cat /etc/hostname >/dev/null; echo read=$?`));
    expect(outcome.stdout).toBe('rc=1\nrc=1\nread=0\n');
    expect(readdirSync(box.work)).toEqual([]);
  });

  it('runs the command in its own session and PID namespace and passes its exit status through', async () => {
    const outcome = await runConfined({ policy: { type: 'read-only' }, cwd: box.work }, sh('echo pid=$$; ls /proc | grep -c "^[0-9]" ; exit 7'));
    expect(outcome.code).toBe(7);
    const [pidLine, count] = outcome.stdout.trim().split('\n');
    expect(pidLine).toBe('pid=2');
    expect(Number(count)).toBeLessThan(6);
  });

  it('runs danger-full-access unconfined, as the policy asks', async () => {
    const spec = await prepareSandboxedSpawn({ policy: { type: 'danger-full-access' }, cwd: box.work, env: process.env }, ['echo', 'hi'], { capability });
    expect(spec).toEqual({ argv: ['echo', 'hi'], env: {}, extraFds: [], sandboxed: false });
  });
});
