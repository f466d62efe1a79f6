// A provider written by another team: its skills reach the catalog as packages, `$name` injects
// them, and `skills.read` reads only through it, with the same package checks as the built-ins.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NamespaceToolHandler, ToolContext } from '@skein/extension-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extensionRequest } from './support/extension-request.js';
import type { SkillProvider } from '../src/providers/skill-provider.js';
import { SkillsService } from '../src/skills-service.js';
import type { Skill } from '../src/skill.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'skein-custom-skills-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const PACKAGE = 'skill://team-catalog/lint';
const reads: string[] = [];
const provider: SkillProvider = {
  id: 'team-catalog',
  kind: 'custom',
  list: () => {
    const skill: Skill = { name: 'team-lint', description: 'Lints the team way.', hidden: false, scope: 'user', locator: { kind: 'custom', providerId: 'team-catalog', package: PACKAGE, mainResource: `${PACKAGE}/SKILL.md` } };
    return Promise.resolve({ skills: [skill], warnings: [] });
  },
  read: (_skill, resource) => {
    reads.push(resource);
    return Promise.resolve({ resource, contents: `contents of ${resource}` });
  },
};

function request(prompt: string) {
  return extensionRequest({ threadId: 't', cwd: home, prompt });
}

describe('a custom provider', () => {
  it('lists in the package catalog, injects on $name, and is the only reader of its packages', async () => {
    reads.splice(0);
    const service = new SkillsService({ home, settings: () => Promise.resolve({ projectRoot: home, toggles: [], remoteSkills: true }), providers: [provider], watch: false, userHome: null, adminRoot: null });
    const extension = service.extension;
    const turn = request('Run $team-lint.');
    const fragments = (await extension.context!.threadFragments!(turn)).map((fragment) => fragment.text);
    expect(fragments[1]).toContain(`- team-lint: Lints the team way. (custom resource: ${PACKAGE})`);
    const injected = await extension.turnInput!.contributeTurnInput(turn);
    expect(injected).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `<skill>\n<name>team-lint</name>\n<path>${PACKAGE}/SKILL.md</path>\ncontents of ${PACKAGE}/SKILL.md\n</skill>` }] }]);

    const [namespace] = (await extension.tools!.tools({ ...turn })) as NamespaceToolHandler[];
    const read = namespace!.tools.find((tool) => tool.spec.name === 'read')!;
    const context = { environments: [], signal: new AbortController().signal } as unknown as ToolContext;
    const handle = (args: unknown) => (read as { handle(args: unknown, context: ToolContext): Promise<{ output: unknown }> }).handle(args, context);
    const authority = { kind: 'custom', id: 'team-catalog' };
    expect(JSON.parse((await handle({ package: PACKAGE, resource: `${PACKAGE}/guide.md` })).output as string)).toEqual({ authority, resource: `${PACKAGE}/guide.md`, contents: `contents of ${PACKAGE}/guide.md`, next_cursor: null, truncated: false });
    // Named with its authority, the package reads the same; under another authority it is not there.
    expect(JSON.parse((await handle({ authority, package: PACKAGE, resource: `${PACKAGE}/guide.md` })).output as string)).toMatchObject({ authority });
    expect((await handle({ authority: { kind: 'remote', id: 'team-catalog' }, package: PACKAGE })).output).toBe('skill package is not available');
    expect((await handle({ package: PACKAGE, resource: 'skill://team-catalog/other/SKILL.md' })).output).toContain('not part of the package');
    expect((await handle({ package: 'skill://team-catalog/missing' })).output).toBe('skill package is not available');
    expect(reads).toEqual([`${PACKAGE}/SKILL.md`, `${PACKAGE}/guide.md`, `${PACKAGE}/guide.md`]);
    await service.close();
  });
});
