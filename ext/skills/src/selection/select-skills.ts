// Which skills a turn's input selects: `$name` mentions in its text (a plugin's skills are
// `$plugin:skill`), linked mentions `[$name](path)`, structured skill inputs, mentions of a skill's
// SKILL.md, and `skill://` package or resource identifiers. Unknown names select nothing.
import type { UserInput } from '@skein/extension-api';
import type { Skill } from '../skill.js';

// `$name` not preceded by a word character or `$` (so `$$x` and `a$x` are not mentions); or a linked
// mention `[$name](path)`, whose path names the skill (its SKILL.md or `skill://` package).
const NAME = '[A-Za-z0-9][A-Za-z0-9_:-]*(?:\\.[A-Za-z0-9_:-]+)*';
const MENTION = new RegExp(`\\[\\$(${NAME})\\]\\(([^)\\s]+)\\)|(?<![\\w$])\\$(${NAME})`, 'g');
const SKILL_URI = /skill:\/\/[^\s"'`<>()]+/g;

/**
 * The selected skills in order of first mention, each once. `skills` is the turn's catalog in
 * precedence order: when an executor skill and a host skill share a name, the executor's comes
 * first, so it owns the invocation.
 */
export function selectSkills(input: readonly UserInput[], skills: readonly Skill[]): Skill[] {
  const byName = new Map<string, Skill>();
  for (const skill of skills) if (!byName.has(skill.name)) byName.set(skill.name, skill);
  const selected: Skill[] = [];
  const add = (skill: Skill | undefined) => {
    if (skill !== undefined && !selected.includes(skill)) selected.push(skill);
  };
  for (const part of input) {
    switch (part.type) {
      case 'text':
        for (const match of part.text.matchAll(MENTION)) {
          // A linked mention's path wins over its label, so a shadowed skill can still be named.
          const [, label, linked, name] = match;
          add(linked === undefined ? byName.get(name ?? '') : (byPath(skills, linked) ?? byName.get(label ?? '')));
        }
        for (const match of part.text.matchAll(SKILL_URI)) add(byPackage(skills, match[0]));
        break;
      case 'skill':
        add(byPath(skills, part.path) ?? byName.get(part.name));
        break;
      case 'mention':
        add(byPath(skills, part.path));
        break;
      case 'image':
      case 'localImage':
        break;
    }
  }
  return selected;
}

function byPath(skills: readonly Skill[], path: string): Skill | undefined {
  if (path.startsWith('skill://')) return byPackage(skills, path);
  return skills.find((skill) => skill.locator.kind === 'file' && skill.locator.path === path);
}

/** The skill whose package is `uri` or holds it (the deepest package wins). */
function byPackage(skills: readonly Skill[], uri: string): Skill | undefined {
  const trimmed = uri.replace(/[.,;:!?]+$/, '');
  let best: Skill | undefined;
  for (const skill of skills) {
    if (skill.locator.kind === 'file') continue;
    const pkg = skill.locator.package;
    if (trimmed !== pkg && !trimmed.startsWith(`${pkg}/`)) continue;
    if (best === undefined || (best.locator.kind !== 'file' && pkg.length > best.locator.package.length)) best = skill;
  }
  return best;
}
