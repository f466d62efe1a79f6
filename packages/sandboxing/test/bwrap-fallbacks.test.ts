// The machines where bubblewrap is older, absent or impossible: a system bwrap that predates
// `--argv0` still confines (Skein never passes it); WSL1 is refused with the way out; a host whose
// sandbox cannot run gets one startup warning naming the remedy.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSandboxProbeCache, isWsl1KernelRelease, prepareSandboxedSpawn, probeSandbox, sandboxStartupWarning } from '../src/index.js';
import { capability, runSpec, sh, skipReason } from './sandbox-harness.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-bwrap-fallback-')));
  clearSandboxProbeCache();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A `bwrap` that behaves as bubblewrap before 0.9: `--argv0` is an unknown option; the rest goes to the real one. */
function bwrapWithoutArgv0(realBwrap: string): string {
  const dir = path.join(root, 'old-bwrap');
  mkdirSync(dir);
  const file = path.join(dir, 'bwrap');
  writeFileSync(file, `#!/bin/sh\nfor arg in "$@"; do\n  if [ "$arg" = "--argv0" ]; then echo "bwrap: Unknown option --argv0" >&2; exit 1; fi\ndone\nexec ${realBwrap} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('bubblewrap fallbacks', () => {
  it.skipIf(skipReason !== '')(`confines commands with a system bwrap that has no --argv0${skipReason}`, async () => {
    if (!capability.available || capability.platform !== 'linux') throw new Error('the harness said bubblewrap works');
    const old = bwrapWithoutArgv0(capability.bwrapPath);
    const probed = await probeSandbox({ platform: 'linux', bwrapPath: old, env: process.env, cwd: root });
    expect(probed).toMatchObject({ available: true, bwrapPath: old });
    const spec = await prepareSandboxedSpawn({ policy: { type: 'read-only' }, cwd: root, env: process.env }, sh(`echo confined; touch ${root}/written`), { capability: probed });
    const outcome = await runSpec(spec, root);
    expect(outcome.stdout).toBe('confined\n');
    // Read-only held: the write was refused inside the sandbox.
    expect(outcome.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  it('tells WSL1 kernels from WSL2 and native ones', () => {
    expect(isWsl1KernelRelease('4.4.0-19041-Microsoft')).toBe(true);
    expect(isWsl1KernelRelease('5.15.167.4-microsoft-standard-WSL2')).toBe(false);
    expect(isWsl1KernelRelease('4.19.104-microsoft-standard')).toBe(false);
    expect(isWsl1KernelRelease('6.1.0-18-amd64')).toBe(false);
  });

  it('refuses WSL1 before looking for bwrap, and says to move to WSL2', async () => {
    const probe = await probeSandbox({ platform: 'linux', kernelRelease: '4.4.0-19041-Microsoft', env: process.env, cwd: root });
    expect(probe).toMatchObject({ available: false, code: 'Wsl1Unsupported' });
    if (!probe.available) expect(probe.remedy).toContain('wsl --set-version');
    const attempt = prepareSandboxedSpawn({ policy: { type: 'read-only' }, cwd: root, env: process.env }, ['true'], { platform: 'linux', capability: probe });
    await expect(attempt).rejects.toMatchObject({ code: 'Wsl1Unsupported' });
  });

  it('warns at startup, with the remedy, only when the default policy confines and the sandbox cannot run', async () => {
    const noBwrap = { platform: 'linux' as const, env: { PATH: path.join(root, 'empty') }, cwd: root };
    const warning = await sandboxStartupWarning(true, noBwrap);
    expect(warning).toContain('no bwrap executable was found on PATH');
    expect(warning).toContain('apt-get install bubblewrap');
    expect(await sandboxStartupWarning(false, noBwrap)).toBeUndefined();
    expect(await sandboxStartupWarning(true, { ...noBwrap, platform: 'win32' })).toBeUndefined();
    if (skipReason === '') expect(await sandboxStartupWarning(true, { env: process.env, cwd: root })).toBeUndefined();
  });
});
