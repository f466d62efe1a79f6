import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostSkillCache } from '../src/host/host-skill-cache.js';
import { hostSkillRoots } from '../src/host/host-roots.js';
import { bundledSkillsDir, unpackSystemSkills } from '../src/host/system-skills.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skein-skills-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const skill = (folder: string, name: string) => {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name}.\n---\nbody\n`);
};

describe('host roots', () => {
  it('lists repo roots from the cwd up to the project root, then the user, admin and system roots', () => {
    const roots = hostSkillRoots({ home: '/h', userHome: '/u', cwd: '/p/a/b', projectRoot: '/p', extraRoots: ['/x'], adminRoot: null });
    expect(roots.map((root) => `${root.scope}:${root.path}`)).toEqual([
      'repo:/p/a/b/.codex/skills', 'repo:/p/a/b/.agents/skills',
      'repo:/p/a/.codex/skills', 'repo:/p/a/.agents/skills',
      'repo:/p/.codex/skills', 'repo:/p/.agents/skills',
      'user:/h/skills', 'user:/u/.agents/skills', 'user:/x', 'system:/h/skills/.system',
    ]);
  });
});

describe('HostSkillCache', () => {
  it('keeps one snapshot per root set until a root changes', async () => {
    skill(path.join(dir, 'skills', 'one'), 'one');
    skill(path.join(dir, 'skills', 'deep', 'er', 'two'), 'two');
    const cache = new HostSkillCache({ watch: false });
    const roots = [{ path: path.join(dir, 'skills'), scope: 'user' as const }];
    const first = await cache.snapshot(roots);
    expect(first.skills.map((found) => found.name)).toEqual(['two', 'one']);
    expect(await cache.snapshot(roots)).toBe(first);
    skill(path.join(dir, 'skills', 'three'), 'three');
    const second = await cache.snapshot(roots);
    expect(second).not.toBe(first);
    expect(second.skills.map((found) => found.name)).toContain('three');
    expect(Object.isFrozen(second.skills)).toBe(true);
  });
});

describe('system skills', () => {
  it('unpacks the bundle once, keeps other folders, and leaves no temporary files', async () => {
    const home = path.join(dir, 'home');
    const foreign = path.join(home, 'skills', '.system', 'someone-elses');
    skill(foreign, 'someone-elses');
    await unpackSystemSkills(home);
    const target = path.join(home, 'skills', '.system');
    for (const name of ['create-skill', 'install-skill']) {
      expect(readFileSync(path.join(target, name, 'SKILL.md'), 'utf8')).toBe(readFileSync(path.join(bundledSkillsDir(), name, 'SKILL.md'), 'utf8'));
    }
    expect(existsSync(foreign)).toBe(true);
    writeFileSync(path.join(target, 'create-skill', 'SKILL.md'), 'edited');
    await unpackSystemSkills(home);
    // The marker says the bundle is current: an unchanged bundle is not written again.
    expect(readFileSync(path.join(target, 'create-skill', 'SKILL.md'), 'utf8')).toBe('edited');
    expect(readFileSync(path.join(target, '.skein-system-skills.marker'), 'utf8')).toMatch(/^[0-9a-f]{16}\n$/);
  });
});
