import { describe, expect, it } from 'vitest';
import { parseSkillFile, SkillFileError } from '../src/skill-file.js';

describe('parseSkillFile', () => {
  it('reads the front matter, the short description and agents/openai.yaml', async () => {
    const metadata = await parseSkillFile(
      '---\nname: greeter\ndescription: Greets.\nmetadata:\n  short-description: Hi\n---\nbody\n',
      'interface:\n  display_name: Greeter\n  icon_small: ./assets/small.svg\npolicy:\n  allow_implicit_invocation: false\ndependencies:\n  tools:\n    - type: mcp\n      value: docs\n',
    );
    expect(metadata).toEqual({
      name: 'greeter',
      description: 'Greets.',
      shortDescription: 'Hi',
      interface: { displayName: 'Greeter', shortDescription: null, iconSmall: './assets/small.svg', iconLarge: null, brandColor: null, defaultPrompt: null },
      dependencies: { tools: [{ type: 'mcp', value: 'docs' }] },
      hidden: true,
    });
  });

  it.each([
    ['no front matter', 'just text', /missing YAML front matter/],
    ['YAML that does not parse', '---\nname: [unclosed\n---\n', /front matter is not valid YAML/],
    ['no description', '---\nname: x\n---\n', /description/],
    ['an empty name', '---\nname: ""\ndescription: d\n---\n', /name/],
    ['a name over 64 characters', `---\nname: ${'n'.repeat(65)}\ndescription: d\n---\n`, /name/],
  ])('refuses %s with a message that says why', async (_what, text, message) => {
    await expect(parseSkillFile(text)).rejects.toThrow(SkillFileError);
    await expect(parseSkillFile(text)).rejects.toThrow(message);
  });

  it('refuses an agents/openai.yaml of the wrong shape', async () => {
    await expect(parseSkillFile('---\nname: x\ndescription: d\n---\n', 'policy:\n  allow_implicit_invocation: "no"\n')).rejects.toThrow(/agents\/openai.yaml: policy.allow_implicit_invocation/);
  });
});
