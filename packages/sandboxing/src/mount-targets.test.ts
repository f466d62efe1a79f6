// Mask bookkeeping: the last sandbox out removes an empty mask target; a live one keeps it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerMountTargets, REGISTRY_LOCK_FILE, releaseMountTargets } from './mount-targets.js';

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

  it('releases only once another process is done with the registry, keeping a target it registered meanwhile', async () => {
    // The other process holds the registry lock while it plans a sandbox that binds the mask; once it
    // has registered, it lets go. A release that ignored the lock would remove the mask first.
    const target = path.join(root, '.aws');
    const ours = registerMountTargets(registry, [target]);
    mkdirSync(target);
    const folder = path.join(registry, readdirSync(registry).find((name) => name !== REGISTRY_LOCK_FILE)!);
    const lock = path.join(registry, REGISTRY_LOCK_FILE);
    const script = [
      "const fs = require('node:fs');",
      `const [folder, target, lock] = ${JSON.stringify([folder, target, lock])};`,
      'fs.writeFileSync(lock, String(process.pid));',
      'process.stdout.write("locked\\n");',
      // The planning this process does while holding the lock takes a while.
      'setTimeout(() => { fs.writeFileSync(folder + "/" + process.pid + "-1", target); fs.unlinkSync(lock); }, 300);',
      'setTimeout(() => {}, 60_000);',
    ].join('\n');
    const other = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => other.stdout.once('data', () => resolve()));
      releaseMountTargets(ours);
      expect(existsSync(target)).toBe(true);
      expect(readdirSync(folder)).toEqual([`${other.pid!}-1`]);
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
  });

  it('takes over a registry lock its owner left behind by dying', () => {
    mkdirSync(registry, { recursive: true });
    writeFileSync(path.join(registry, REGISTRY_LOCK_FILE), '999999999');
    const target = path.join(root, '.codex');
    const registration = registerMountTargets(registry, [target]);
    expect(existsSync(path.join(registry, REGISTRY_LOCK_FILE))).toBe(false);
    mkdirSync(target);
    releaseMountTargets(registration);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(registry)).toEqual([]);
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
