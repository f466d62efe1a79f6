// The skills extension as a Codex client meets it through the app-server: the catalog and the
// `<skill>` injection in the requests the model receives, `skills/list`, `skills/config/write`,
// `skills/extraRoots/set` and `skills/changed`. Model-visible text is compared whole with golden
// files (the home directory written as <HOME>).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await model.close();
  home.cleanup();
});

async function appServer(): Promise<AppServerTestClient> {
  const client = spawnStdioClient(home);
  clients.push(client);
  await client.initialize();
  return client;
}

const runTurn = runTurnToEnd;

function writeSkill(root: string, dir: string, frontMatter: string, body = 'Follow these steps.\n', openAiYaml?: string): string {
  const folder = path.join(root, dir);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'SKILL.md');
  writeFileSync(file, `---\n${frontMatter}\n---\n\n${body}`);
  if (openAiYaml !== undefined) {
    mkdirSync(path.join(folder, 'agents'));
    writeFileSync(path.join(folder, 'agents', 'openai.yaml'), openAiYaml);
  }
  return file;
}

/** The first part of the developer message that opens with the catalog, as Codex places it. */
function catalogPart(items: readonly unknown[]): string {
  const parts = items.map((item) => (item as { content?: { text?: string }[] }).content?.[0]?.text ?? '');
  const part = parts.find((text) => text.startsWith('<skills_instructions>'));
  expect(part, 'a developer message opening with <skills_instructions>').toBeDefined();
  return part ?? '';
}

const golden = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', 'skills', name), 'utf8');
const withHome = (value: string) => value.replaceAll(home.home, '<HOME>');

describe('host skills', () => {
  it('lists user and system skills, injects the ones a prompt names after it, and warns about a malformed one', async () => {
    const skills = path.join(home.home, 'skills');
    const greeter = writeSkill(skills, 'greeter', 'name: greeter\ndescription: Greets the user warmly. Use when the user asks for a greeting.', 'Say hello in three languages.\n');
    const quiet = writeSkill(skills, 'quiet', 'name: quiet\ndescription: A skill only used on request.', 'Whisper.\n', 'policy:\n  allow_implicit_invocation: false\n');
    writeSkill(skills, 'broken', 'name: [unclosed\ndescription: x');
    model.expect([sse(assistantMessage('Hello.'), completed())]);
    const client = await appServer();
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurn(client, thread.id, 'Please use $greeter, then $quiet.');

    const request = model.requests[0]!;
    expect(withHome(catalogPart(request.inputItems({ role: 'developer' })))).toBe(golden('host-catalog.txt').trimEnd());
    const user = request.messageTexts('user');
    const prompt = user.indexOf('Please use $greeter, then $quiet.');
    expect(prompt).toBeGreaterThanOrEqual(0);
    expect(user.slice(prompt + 1)).toEqual([
      `<skill>\n<name>greeter</name>\n<path>${greeter}</path>\n${readFileSync(greeter, 'utf8')}\n</skill>`,
      `<skill>\n<name>quiet</name>\n<path>${quiet}</path>\n${readFileSync(quiet, 'utf8')}\n</skill>`,
    ]);
    const warning = client.notifications.find((note) => note.method === 'warning' && JSON.stringify(note.params).includes('broken'));
    expect(warning?.params).toMatchObject({ threadId: thread.id, message: expect.stringContaining(path.join(skills, 'broken', 'SKILL.md')) as unknown });
    expect(client.schemaFailures).toEqual([]);
  });

  it('answers skills/list per cwd with every scope, and persists skills/config/write as Codex does', async () => {
    const skills = path.join(home.home, 'skills');
    const greeter = writeSkill(skills, 'greeter', 'name: greeter\ndescription: Greets.\nmetadata:\n  short-description: Says hi');
    writeSkill(skills, 'broken', 'description: no name');
    const repo = writeSkill(path.join(home.workspace, '.agents', 'skills'), 'lint-fix', 'name: lint-fix\ndescription: Fixes lint errors in this repository.');
    const client = await appServer();
    const listed = (await client.request('skills/list', { cwds: [home.workspace] })) as {
      data: { cwd: string; skills: { name: string; scope: string; enabled: boolean; path: string; shortDescription?: string }[]; errors: { path: string; message: string }[] }[];
    };
    expect(listed.data).toHaveLength(1);
    const [entry] = listed.data;
    expect(entry!.cwd).toBe(home.workspace);
    expect(entry!.skills.map((skill) => [skill.name, skill.scope, skill.enabled])).toEqual([
      ['lint-fix', 'repo', true],
      ['greeter', 'user', true],
      ['create-skill', 'system', true],
      ['install-skill', 'system', true],
    ]);
    expect(entry!.skills.find((skill) => skill.name === 'lint-fix')?.path).toBe(repo);
    expect(entry!.skills.find((skill) => skill.name === 'greeter')).toMatchObject({ path: greeter, shortDescription: 'Says hi' });
    expect(entry!.errors).toEqual([{ path: path.join(skills, 'broken', 'SKILL.md'), message: expect.stringContaining('name') as unknown }]);

    const configFile = path.join(home.home, 'config.toml');
    const before = readFileSync(configFile, 'utf8');
    expect(await client.request('skills/config/write', { path: greeter, enabled: false })).toEqual({ effectiveEnabled: false });
    await client.waitFor('skills/changed');
    expect(await client.request('skills/config/write', { name: 'install-skill', enabled: false })).toEqual({ effectiveEnabled: false });
    // The user's file keeps what it had; the toggles are appended as `[[skills.config]]` tables.
    expect(readFileSync(configFile, 'utf8')).toBe(`${before.trimEnd()}\n\n[[skills.config]]\npath = "${greeter}"\nenabled = false\n\n[[skills.config]]\nname = "install-skill"\nenabled = false\n`);
    // Writing the same skill again replaces its entry rather than adding one.
    expect(await client.request('skills/config/write', { path: greeter, enabled: true })).toEqual({ effectiveEnabled: true });
    expect(readFileSync(configFile, 'utf8').match(/\[\[skills\.config\]\]/g)).toHaveLength(2);
    const relisted = (await client.request('skills/list', { cwds: [home.workspace], forceReload: true })) as typeof listed;
    expect(relisted.data[0]!.skills.map((skill) => [skill.name, skill.enabled])).toEqual([
      ['lint-fix', true],
      ['greeter', true],
      ['create-skill', true],
      ['install-skill', false],
    ]);
    const refused = await client.requestReply('skills/config/write', { enabled: false });
    expect(refused).toMatchObject({ error: { code: -32600 } });
    expect(client.schemaFailures).toEqual([]);
  });

  it('sees a skill dropped into a watched folder: skills/changed, then the new catalog in the next turn only', async () => {
    const skills = path.join(home.home, 'skills');
    writeSkill(skills, 'greeter', 'name: greeter\ndescription: Greets.');
    model.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed()), sse(assistantMessage('Three.'), completed())]);
    const client = await appServer();
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurn(client, thread.id, 'first');
    writeSkill(skills, 'late', 'name: late\ndescription: Arrived after the first turn.');
    await client.waitFor('skills/changed');
    await runTurn(client, thread.id, 'second');
    await runTurn(client, thread.id, 'third');

    const catalogs = (index: number) => model.requests[index]!.messageTexts('developer').filter((message) => message.startsWith('<skills_instructions>'));
    expect(catalogs(0)).toHaveLength(1);
    expect(catalogs(0)[0]).not.toContain('- late:');
    // The second request replays the first catalog and adds the changed one; the third adds nothing.
    expect(catalogs(1)).toHaveLength(2);
    expect(catalogs(1)[1]).toContain(`- late: Arrived after the first turn. (file: r0/late/SKILL.md)`);
    expect(catalogs(2)).toHaveLength(2);

    const extra = path.join(home.workspace, '..', 'extra-skills');
    writeSkill(extra, 'borrowed', 'name: borrowed\ndescription: From an extra root.');
    expect(await client.request('skills/extraRoots/set', { extraRoots: [extra] })).toEqual({});
    await client.waitFor('skills/changed');
    const listed = (await client.request('skills/list', {})) as { data: { skills: { name: string }[] }[] };
    expect(listed.data[0]!.skills.map((skill) => skill.name)).toContain('borrowed');
    expect(client.schemaFailures).toEqual([]);
  });
});
