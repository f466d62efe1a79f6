import { describe, expect, it } from 'vitest';
import { selectSkills } from '../src/selection/select-skills.js';
import { MAX_INJECTED_SKILL_BYTES, skillMessage } from '../src/selection/skill-injection.js';
import type { Skill } from '../src/skill.js';

const host = (name: string): Skill => ({ name, description: 'd', hidden: false, scope: 'user', locator: { kind: 'file', rootPath: '/r', path: `/r/${name}/SKILL.md` } });
const remote = (name: string, pkg: string): Skill => ({ name, description: 'd', hidden: false, scope: 'repo', locator: { kind: 'remote', server: 'hub', package: pkg, mainResource: `${pkg}/SKILL.md` } });
const text = (value: string) => ({ type: 'text' as const, text: value, text_elements: [] });

describe('selectSkills', () => {
  const skills = [remote('shared', 'skill://hub/shared'), host('shared'), host('greeter'), host('a.b')];

  it('takes $name mentions in order, once each, and ignores unknown names and look-alikes', () => {
    const picked = selectSkills([text('use $greeter and $nope, price $5, a$greeter, $$greeter, then $greeter again and $a.b.')], skills);
    expect(picked.map((skill) => skill.name)).toEqual(['greeter', 'a.b']);
  });

  it('lets the package skill own a shared name', () => {
    expect(selectSkills([text('$shared')], skills)).toEqual([skills[0]]);
  });

  it('takes plugin names with a colon, and lets a linked mention name its skill by path', () => {
    const plugin = { ...host('alpha:greet'), pluginId: 'alpha@mp' };
    expect(selectSkills([text('please $alpha:greet.')], [...skills, plugin])).toEqual([plugin]);
    // The link's path picks the host skill the package skill shadows; an unknown path falls back to the label.
    expect(selectSkills([text('[$shared](/r/shared/SKILL.md) and [$greeter](/elsewhere/SKILL.md)')], skills)).toEqual([skills[1], skills[2]]);
  });

  it('takes structured skill inputs, SKILL.md mentions and skill:// identifiers', () => {
    const picked = selectSkills(
      [{ type: 'skill', name: 'ignored', path: '/r/greeter/SKILL.md' }, { type: 'mention', name: 'x', path: '/r/a.b/SKILL.md' }, text('read skill://hub/shared/notes.md.')],
      skills,
    );
    expect(picked.map((skill) => skill.locator)).toEqual([skills[2]!.locator, skills[3]!.locator, skills[0]!.locator]);
  });
});

describe('skillMessage', () => {
  it('wraps the whole file as Codex does', () => {
    expect(skillMessage('greeter', '/r/greeter/SKILL.md', '---\nname: greeter\n---\nbody\n')).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<skill>\n<name>greeter</name>\n<path>/r/greeter/SKILL.md</path>\n---\nname: greeter\n---\nbody\n\n</skill>' }],
    });
  });

  it('bounds a 1 MB SKILL.md and says where the rest is', () => {
    const item = skillMessage('big', '/r/big/SKILL.md', `${'é'.repeat(512 * 1024)}`);
    const body = (item as { content: { text: string }[] }).content[0]!.text;
    expect(Buffer.byteLength(body)).toBeLessThan(MAX_INJECTED_SKILL_BYTES + 512);
    expect(body).not.toContain('\uFFFD');
    expect(body).toContain('SKILL.md truncated: 1048576 bytes');
  });
});
