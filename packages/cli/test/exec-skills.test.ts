// `skein exec` installs the skills extension by default: the built binary, skills in the home and
// in the repository, and the mock model, which receives the catalog and the skill a prompt names.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, sse, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';

let fixture: ExecScratch;
let server: MockResponsesServer;
beforeEach(async () => {
  fixture = await execScratch('skein-exec-skills-');
  ({ server } = fixture);
});
afterEach(() => fixture.cleanup());

function writeSkill(root: string, name: string, frontMatter: string): string {
  mkdirSync(path.join(root, name), { recursive: true });
  const file = path.join(root, name, 'SKILL.md');
  writeFileSync(file, `---\n${frontMatter}\n---\n\nBody of ${name}.\n`);
  return file;
}

describe('skills in skein exec', () => {
  it('sends the catalog, injects $name after the prompt, and warns on stderr about a malformed skill', async () => {
    writeSkill(path.join(fixture.home, 'skills'), 'greeter', 'name: greeter\ndescription: Greets.');
    const repoSkill = writeSkill(path.join(fixture.repo, '.codex', 'skills'), 'release', 'name: release\ndescription: Cuts a release of this repository.');
    const broken = writeSkill(path.join(fixture.home, 'skills'), 'broken', 'name: broken');
    server.expect([sse(assistantMessage('Released.'), completed())]);
    const { code, stderr } = await fixture.skein(['exec', '--skip-git-repo-check', 'Use $release now.']);
    expect(code).toBe(0);
    expect(stderr).toContain(`skill ${broken} was not loaded`);
    const request = server.requests[0]!;
    const catalog = request.messageTexts('developer').find((message) => message.startsWith('<skills_instructions>')) ?? '';
    expect(catalog).toContain('- release: Cuts a release of this repository. (file: r0/release/SKILL.md)');
    expect(catalog).toContain('- greeter: Greets. (file: r1/greeter/SKILL.md)');
    expect(catalog).toContain('(file: r2/create-skill/SKILL.md)');
    const user = request.messageTexts('user');
    expect(user.at(-1)).toBe(`<skill>\n<name>release</name>\n<path>${repoSkill}</path>\n${readFileSync(repoSkill, 'utf8')}\n</skill>`);
    expect(user.at(-2)).toBe('Use $release now.');
  });

  it('leaves out a skill [[skills.config]] disables', async () => {
    const greeter = writeSkill(path.join(fixture.home, 'skills'), 'greeter', 'name: greeter\ndescription: Greets.');
    fixture.writeConfig(`[[skills.config]]\npath = ${JSON.stringify(greeter)}\nenabled = false\n`);
    server.expect([sse(assistantMessage('Hi.'), completed())]);
    const { code } = await fixture.skein(['exec', '--skip-git-repo-check', 'Use $greeter.']);
    expect(code).toBe(0);
    const request = server.requests[0]!;
    expect(request.messageTexts('developer').join('\n')).not.toContain('greeter');
    expect(request.messageTexts('user').some((message) => message.startsWith('<skill>'))).toBe(false);
  });
});
