import { describe, expect, it } from 'vitest';
import { MAX_CATALOG_BYTES, renderHostCatalog, renderPackageCatalog, rootUri } from '../src/catalog/render-catalog.js';
import type { Skill } from '../src/skill.js';

const hostSkill = (name: string, root: string, hidden = false): Skill => ({
  name,
  description: `Does ${name}.`,
  hidden,
  scope: 'user',
  locator: { kind: 'file', rootPath: root, path: `${root}/${name}/SKILL.md` },
});

const executorSkill = (name: string, dir: string): Skill => {
  const pkg = rootUri('cap', dir);
  return {
    name,
    description: `Does ${name}.`,
    hidden: false,
    scope: 'repo',
    locator: { kind: 'executor', authorityId: 'cap', environmentId: 'remote', rootPath: '/srv/caproot', skillRoot: dir, package: pkg, mainResource: `${pkg}/SKILL.md` },
  };
};

describe('the catalog', () => {
  it('aliases host roots in order of first use and leaves hidden skills out', () => {
    const text = renderHostCatalog([hostSkill('b', '/home/u/skills'), hostSkill('quiet', '/home/u/skills', true), hostSkill('a', '/home/u/skills/.system')])!.text;
    expect(text).toContain('### Skill roots\n- `r0` = `/home/u/skills`\n- `r1` = `/home/u/skills/.system`\n### Available skills\n- b: Does b. (file: r0/b/SKILL.md)\n- a: Does a. (file: r1/a/SKILL.md)\n');
    expect(text).not.toContain('quiet');
    expect(text.startsWith('<skills_instructions>\n')).toBe(true);
    expect(text.endsWith('\n</skills_instructions>')).toBe(true);
  });

  it('writes executor packages under their root alias, and a root-level package in full', () => {
    const text = renderPackageCatalog([executorSkill('cap-skill', '/srv/caproot/skills/cap-skill'), executorSkill('caproot-top', '/srv/caproot')])!.text;
    expect(text).toContain('- `e0` = `skill://cap/srv/caproot`');
    expect(text).toContain('- cap-skill: Does cap-skill. (environment resource: e0/skills/cap-skill)');
    expect(text).toContain('- caproot-top: Does caproot-top. (environment resource: skill://cap/srv/caproot)');
    expect(text).toContain('is not a filesystem path');
    // Only a catalog with orchestrator skills sends the model to skills.list for the current ones.
    expect(text).not.toContain('skills.list');
  });

  it('labels orchestrator and custom resources and points orchestrator skills at skills.list', () => {
    const remote: Skill = { name: 'deploy', description: 'Deploys.', hidden: false, scope: 'user', locator: { kind: 'remote', server: 'hub', package: 'skill://hub/deploy', mainResource: 'skill://hub/deploy/SKILL.md' } };
    const custom: Skill = { name: 'lint', description: 'Lints.', hidden: false, scope: 'user', locator: { kind: 'custom', providerId: 'team', package: 'skill://team/lint', mainResource: 'skill://team/lint/SKILL.md' } };
    const text = renderPackageCatalog([remote, custom])!.text;
    expect(text).toContain('- deploy: Deploys. (orchestrator resource: skill://hub/deploy)');
    expect(text).toContain('- lint: Lints. (custom resource: skill://team/lint)');
    expect(text).toContain('call `skills.list`');
  });

  it('stays within its byte bound with 2,000 skills and says how many it left out', () => {
    const skills = Array.from({ length: 2000 }, (_, index) => ({ ...hostSkill(`skill-${index}`, '/home/u/skills'), description: 'x'.repeat(200) }));
    const text = renderHostCatalog(skills)!.text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_CATALOG_BYTES);
    const listed = text.split('\n').filter((line) => line.startsWith('- skill-')).length;
    expect(listed).toBeGreaterThan(50);
    expect(text).toContain(`(${2000 - listed} more skills are installed but not listed here`);
  });

  it('lists nothing when every skill is hidden', () => {
    expect(renderHostCatalog([hostSkill('quiet', '/r', true)])).toBeUndefined();
    expect(renderPackageCatalog([])).toBeUndefined();
  });
});
