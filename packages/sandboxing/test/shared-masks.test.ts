// Two sandboxes over one writable root at once: the second finds the first one's mask for a missing
// protected path (here `.agents`) already on disk and binds it as an existing path. It must hold
// that mask too, or the first one's release removes it before the second's bubblewrap starts
// ("Can't find source path"), which CI hit with several test files sharing /tmp.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CoreSandboxPolicy } from '@skein/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRY_LOCK_FILE } from '../src/mount-targets.js';
import { prepareSandboxedSpawn, releaseMountTargets } from '../src/index.js';
import { capability, runSpec, skipReason } from './sandbox-harness.js';

const policy: CoreSandboxPolicy = { type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: true, exclude_slash_tmp: true };
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-shared-masks-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(skipReason !== '')(`masks shared by concurrent sandboxes${skipReason}`, () => {
  it('keeps a mask the first sandbox created while a second one still binds it', async () => {
    const work = path.join(root, 'work');
    const stateDir = path.join(root, 'state');
    mkdirSync(work);
    const mask = path.join(work, '.agents');
    const request = { policy, cwd: work, env: process.env };
    const first = await prepareSandboxedSpawn(request, ['true'], { capability, stateDir });
    expect(first.mountTargets?.targets).toContain(mask);
    mkdirSync(mask); // what bubblewrap leaves while the first sandbox runs

    const second = await prepareSandboxedSpawn(request, ['true'], { capability, stateDir });
    expect(second.mountTargets?.targets).toContain(mask);
    releaseMountTargets(first.mountTargets!);
    expect(existsSync(mask)).toBe(true);
    releaseMountTargets(second.mountTargets!);
    expect(existsSync(mask)).toBe(false);
  });

  it('plans only once a release running in another process is done, so it never binds a mask that release removes', async () => {
    // Another process is releasing the last registration of a mask: it holds the registry lock, has
    // dropped its marker, and is about to remove the directory. Planning now would bind the doomed
    // directory as an existing path; on a loaded machine that release then lands before bubblewrap
    // starts, which failed apply_patch's fs helper with "bwrap: Can't find source path /tmp/.aws".
    const work = path.join(root, 'work');
    const stateDir = path.join(root, 'state');
    mkdirSync(work);
    mkdirSync(stateDir, { mode: 0o700 });
    const mask = path.join(work, '.agents');
    mkdirSync(mask);
    const releaser = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const lock = path.join(stateDir, REGISTRY_LOCK_FILE);
      writeFileSync(lock, String(releaser.pid));
      const pending = prepareSandboxedSpawn({ policy, cwd: work, env: process.env }, ['true'], { capability, stateDir });
      // The release finishes (the injected delay: whatever the planner did meanwhile happened before this).
      rmdirSync(mask);
      unlinkSync(lock);
      const spec = await pending;
      const outcome = await runSpec(spec, work);
      expect(outcome.stderr).toBe('');
      expect(outcome.code).toBe(0);
      // Planned after the release: the mask is a missing path again, masked and registered afresh.
      expect(spec.mountTargets?.targets).toContain(mask);
      releaseMountTargets(spec.mountTargets!);
      expect(existsSync(mask)).toBe(false);
    } finally {
      releaser.kill('SIGKILL');
    }
  });

  it('shares the bookkeeping between sandboxes whose commands have different TMPDIRs', async () => {
    // `pnpm demo` runs skein with its own TMPDIR while other processes mask the same /tmp paths.
    const work = path.join(root, 'work');
    mkdirSync(work);
    const mask = path.join(work, '.agents');
    const first = await prepareSandboxedSpawn({ policy, cwd: work, env: { ...process.env, TMPDIR: path.join(root, 'a') } }, ['true'], { capability });
    mkdirSync(mask);
    const second = await prepareSandboxedSpawn({ policy, cwd: work, env: { ...process.env, TMPDIR: path.join(root, 'b') } }, ['true'], { capability });
    expect(second.mountTargets?.targets).toContain(mask);
    releaseMountTargets(first.mountTargets!);
    expect(existsSync(mask)).toBe(true);
    releaseMountTargets(second.mountTargets!);
    expect(existsSync(mask)).toBe(false);
  });

  it('keeps no bookkeeping in a directory others can write, where they could drop the markers', async () => {
    const work = path.join(root, 'work');
    const stateDir = path.join(root, 'shared-state');
    mkdirSync(work);
    mkdirSync(stateDir);
    chmodSync(stateDir, 0o777);
    const spec = await prepareSandboxedSpawn({ policy, cwd: work, env: process.env }, ['true'], { capability, stateDir });
    expect(spec.sandboxed).toBe(true);
    expect(spec.mountTargets).toBeUndefined();
  });
});
