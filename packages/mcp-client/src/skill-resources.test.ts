import { expect, it } from 'vitest';
import { isSkillResource, skillResourceMeta } from './skill-resources.js';

it('takes a resource for a skill by its mcp/skill mimeType alone', () => {
  expect(isSkillResource({ uri: 'skill://a/b', name: 'b', mimeType: 'mcp/skill' })).toBe(true);
  expect(isSkillResource({ uri: 'skill://a/b', name: 'b', mimeType: 'text/markdown' })).toBe(false);
  expect(isSkillResource({ uri: 'skill://a/b', name: 'b' })).toBe(false);
});

it('reads the skill _meta keys, keeping the others, and nothing from a resource without a skill_name', () => {
  expect(skillResourceMeta({ uri: 'skill://p/s', name: 's', mimeType: 'mcp/skill', _meta: { skill_name: 's', plugin_name: 'p', extra: 1 } }))
    .toEqual({ skill_name: 's', plugin_name: 'p', extra: 1 });
  expect(skillResourceMeta({ uri: 'skill://p/s', name: 's', mimeType: 'mcp/skill', _meta: { plugin_name: 'p' } })).toBeUndefined();
  expect(skillResourceMeta({ uri: 'file:///x', name: 'x', mimeType: 'text/plain', _meta: { skill_name: 'x' } })).toBeUndefined();
});
