// Mask bookkeeping: the last sandbox out removes an empty mask target; a live one keeps it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerMountTargets, releaseMountTargets } from './mount-targets.js';

let root: string;
let registry: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-masks-'));
  registry = path.join(root, 'registry');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mount target bookkeeping', () => {
  it('removes an empty target once its only sandbox releases it', () => {
    const target = path.join(root, '.codex');
    const registration = registerMountTargets(registry, [target]);
    mkdirSync(target); // what bubblewrap does while masking
    releaseMountTargets(registration);
    expect(existsSync(target)).toBe(false);
  });

  it('keeps a target while another sandbox of this process still uses it', () => {
    const target = path.join(root, '.git');
    const first = registerMountTargets(registry, [target]);
    const second = registerMountTargets(registry, [target]);
    mkdirSync(target);
    releaseMountTargets(first);
    expect(existsSync(target)).toBe(true);
    releaseMountTargets(second);
    expect(existsSync(target)).toBe(false);
  });

  it('keeps a target registered by another live process and ignores markers of dead ones', async () => {
    const target = path.join(root, '.aws');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    const ours = registerMountTargets(registry, [target]);
    mkdirSync(target);
    const markerDir = path.join(registry, readdirSync(registry)[0]!);
    writeFileSync(path.join(markerDir, `${other.pid!}-1`), target);
    writeFileSync(path.join(markerDir, '999999999-1'), target);
    releaseMountTargets(ours);
    expect(existsSync(target)).toBe(true);
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
    releaseMountTargets(registerMountTargets(registry, [target]));
    expect(existsSync(target)).toBe(false);
  });

  it('never removes a target someone filled meanwhile', () => {
    const target = path.join(root, '.agents');
    const registration = registerMountTargets(registry, [target]);
    mkdirSync(target);
    writeFileSync(path.join(target, 'skill.md'), 'kept');
    releaseMountTargets(registration);
    expect(existsSync(path.join(target, 'skill.md'))).toBe(true);
  });
});
