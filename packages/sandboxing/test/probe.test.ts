// The probe's answers on this machine and on the ways confinement fails, using real executables:
// the installed bwrap, and stand-in bwrap scripts that fail the way real installations do.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxUnavailableError, clearSandboxProbeCache, findBwrap, prepareSandboxedSpawn, probeSandbox } from '../src/index.js';
import { skipReason } from './sandbox-harness.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-probe-'));
  clearSandboxProbeCache();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in `bwrap` in `dir` that answers --version and fails everything else with `stderr`. */
function fakeBwrap(dir: string, stderr: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'bwrap');
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "bubblewrap 0.0-test"; exit 0; fi\necho "${stderr}" >&2\nexit 1\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('probeSandbox', () => {
  it.skipIf(skipReason !== '')(`finds the system bwrap and a working user namespace + seccomp here${skipReason}`, async () => {
    // Probed here, not taken from the run's shared answer: this is the probe's own test.
    const capability = await probeSandbox({ env: process.env, cwd: tmpdir() });
    expect(capability).toMatchObject({ available: true, platform: 'linux', mechanism: 'bubblewrap', userNamespaces: true, seccomp: true });
  });

  it('says to install bubblewrap when none is on PATH, and prepare refuses to run', async () => {
    const probe = await probeSandbox({ platform: 'linux', env: { PATH: path.join(root, 'empty') }, cwd: root });
    expect(probe).toMatchObject({ available: false, code: 'BwrapNotFound' });
    if (!probe.available) expect(probe.remedy).toContain('apt-get install bubblewrap');
    const attempt = prepareSandboxedSpawn({ policy: { type: 'read-only' }, cwd: root, env: { PATH: path.join(root, 'empty') } }, ['true'], { platform: 'linux' });
    await expect(attempt).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(attempt).rejects.toMatchObject({ code: 'BwrapNotFound' });
  });

  it('never uses a bwrap planted inside the working directory', () => {
    const planted = fakeBwrap(path.join(root, 'work', 'bin'), 'planted');
    expect(findBwrap({ PATH: path.dirname(planted) }, path.join(root, 'work'))).toBeUndefined();
    expect(findBwrap({ PATH: path.dirname(planted) }, path.join(root, 'elsewhere'))).toBe(planted);
    expect(findBwrap({ PATH: 'relative/bin' }, root)).toBeUndefined();
  });

  it('explains denied user namespaces and how to allow them', async () => {
    const bin = path.dirname(fakeBwrap(path.join(root, 'bin'), 'bwrap: setting up uid map: Permission denied'));
    const probe = await probeSandbox({ platform: 'linux', env: { PATH: bin }, cwd: path.join(root, 'work') });
    expect(probe).toMatchObject({ available: false, code: 'UserNamespacesDenied' });
    if (!probe.available) {
      expect(probe.reason).toContain('setting up uid map: Permission denied');
      expect(probe.remedy).toMatch(/unprivileged_userns_clone|max_user_namespaces|apparmor_restrict_unprivileged_userns/);
    }
  });

  it('names a refused seccomp filter separately', async () => {
    const bin = path.dirname(fakeBwrap(path.join(root, 'bin'), 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument (seccomp)'));
    expect(await probeSandbox({ platform: 'linux', env: { PATH: bin }, cwd: path.join(root, 'work') })).toMatchObject({ available: false, code: 'SeccompUnavailable' });
  });

  it('reports any other bwrap failure with its message', async () => {
    const bin = path.dirname(fakeBwrap(path.join(root, 'bin'), 'bwrap: Can not mount tmpfs'));
    const probe = await probeSandbox({ platform: 'linux', env: { PATH: bin }, cwd: path.join(root, 'work') });
    expect(probe).toMatchObject({ available: false, code: 'BwrapFailed' });
    if (!probe.available) expect(probe.reason).toContain('Can not mount tmpfs');
  });

  it('runs a working bwrap once, and asks --version only of one that failed, to say which way it failed', async () => {
    const bin = path.join(root, 'bin');
    const runs = path.join(root, 'runs');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\necho "$1" >> ${runs}\nexit 0\n`);
    chmodSync(path.join(bin, 'bwrap'), 0o755);
    expect(await probeSandbox({ platform: 'linux', env: { PATH: bin }, cwd: path.join(root, 'work') })).toMatchObject({ available: true });
    expect(readFileSync(runs, 'utf8')).toBe('--new-session\n');

    const broken = path.join(root, 'broken');
    mkdirSync(broken);
    writeFileSync(path.join(broken, 'bwrap'), '#!/bin/sh\necho "bwrap: cannot execute" >&2\nexit 126\n');
    chmodSync(path.join(broken, 'bwrap'), 0o755);
    const probe = await probeSandbox({ platform: 'linux', env: { PATH: broken }, cwd: path.join(root, 'work') });
    expect(probe).toMatchObject({ available: false, code: 'BwrapFailed' });
    if (!probe.available) expect(probe.reason).toBe(`${path.join(broken, 'bwrap')} --version failed: bwrap: cannot execute`);
  });

  it('retries a bwrap that misses the first deadline with the longer one, and takes its answer', async () => {
    // The first trial hangs (a loaded machine), the retry finishes at once.
    const bin = path.join(root, 'bin');
    const marker = path.join(root, 'tried-once');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "bubblewrap 0.0-test"; exit 0; fi\nif [ -e ${marker} ]; then exit 0; fi\ntouch ${marker}\nexec sleep 60\n`);
    chmodSync(path.join(bin, 'bwrap'), 0o755);
    const probe = await probeSandbox({ platform: 'linux', env: { PATH: bin }, cwd: path.join(root, 'work'), timeoutMs: 500, retryTimeoutMs: 30_000 });
    expect(probe).toMatchObject({ available: true, mechanism: 'bubblewrap', bwrapPath: path.join(bin, 'bwrap') });
    expect(existsSync(marker)).toBe(true);
  });

  it('reports a bwrap that misses both deadlines as timed out, not as broken, and probes again next time', async () => {
    const bin = path.join(root, 'bin');
    const runs = path.join(root, 'runs');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "bubblewrap 0.0-test"; exit 0; fi\necho run >> ${runs}\nexec sleep 60\n`);
    chmodSync(path.join(bin, 'bwrap'), 0o755);
    const options = { platform: 'linux', env: { PATH: bin }, cwd: path.join(root, 'work'), timeoutMs: 500, retryTimeoutMs: 1000 } as const;
    const probe = await probeSandbox(options);
    expect(probe).toMatchObject({ available: false, code: 'BwrapTimedOut' });
    if (!probe.available) {
      expect(probe.reason).toBe(`${path.join(bin, 'bwrap')} did not finish an empty sandbox within 0.5 s, nor within 1 s when retried; the machine is too loaded to tell whether it can confine commands`);
      expect(probe.remedy).toContain('Try again when the machine is less busy');
    }
    expect(readFileSync(runs, 'utf8')).toBe('run\nrun\n');
    // Not cached: a later call may find the machine less busy.
    expect(await probeSandbox(options)).toMatchObject({ available: false, code: 'BwrapTimedOut' });
    expect(readFileSync(runs, 'utf8')).toBe('run\nrun\nrun\nrun\n');
  });

  it('answers Windows and unknown platforms with an actionable refusal', async () => {
    expect(await probeSandbox({ platform: 'win32' })).toMatchObject({ available: false, code: 'WindowsRunnerUnavailable' });
    expect(await probeSandbox({ platform: 'freebsd' })).toMatchObject({ available: false, code: 'UnsupportedPlatform' });
    await expect(prepareSandboxedSpawn({ policy: { type: 'read-only' }, cwd: '/w', env: {} }, ['x'], { platform: 'freebsd' })).rejects.toMatchObject({ code: 'UnsupportedPlatform' });
  });

  it('rejects an empty command and an invalid policy before probing', async () => {
    await expect(prepareSandboxedSpawn({ policy: { type: 'read-only' }, cwd: root, env: {} }, [])).rejects.toMatchObject({ code: 'InvalidRequest' });
    const bogus = { type: 'workspaceWrite' } as unknown as { type: 'read-only' };
    await expect(prepareSandboxedSpawn({ policy: bogus, cwd: root, env: {} }, ['true'])).rejects.toMatchObject({ code: 'InvalidRequest' });
  });
});
