// Executor skills: a capability root on a real remote `skein exec-server`, found and read through
// that executor's filesystem only. The exec-server runs under bubblewrap with its own view of the
// root's path, so a same-named decoy on the host would show up if anything read the host instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const EXEC_SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/exec-server'))), 'bin.js');
const EXEC_TOKEN = 'exec-server-test-token';
const BWRAP_WORKS = spawnSync('bwrap', ['--dev-bind', '/', '/', 'true']).status === 0;

let model: MockResponsesServer;
let home: TestHome;
const children: ChildProcess[] = [];
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill();
  await model.close();
  home.cleanup();
});

function writeSkill(folder: string, frontMatter: string, body: string): string {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'SKILL.md');
  writeFileSync(file, `---\n${frontMatter}\n---\n\n${body}`);
  return file;
}

/** An exec-server that sees `view` mounted at `root` (the host sees its own `root`). */
async function startExecServer(root: string, view: string): Promise<string> {
  const tokenFile = path.join(path.dirname(root), '.exec-token');
  writeFileSync(tokenFile, `${EXEC_TOKEN}\n`);
  const child = spawn('bwrap', ['--die-with-parent', '--dev-bind', '/', '/', '--bind', view, root, '--', process.execPath, EXEC_SERVER_BIN, '--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', tokenFile], {
    env: { PATH: process.env.PATH, HOME: path.dirname(root) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return line.trim();
}

const golden = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', 'skills', name), 'utf8');
const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

/** The capability root on both sides: a host decoy at `root`, and what the executor sees there. */
function capabilityRoot() {
  const base = path.dirname(home.workspace);
  const root = path.join(base, 'caproot');
  const view = path.join(base, 'executor-view');
  // The host's copy of the root: never to be read.
  writeSkill(path.join(root, 'skills', 'cap-skill'), 'name: cap-skill\ndescription: HOST DECOY, never to be read.', 'HOST DECOY BODY\n');
  // What the executor sees at the same path.
  const capSkill = writeSkill(path.join(view, 'skills', 'cap-skill'), 'name: cap-skill\ndescription: Does the cap thing on the executor.', 'Executor body.\n');
  return { root, view, capSkill, pkg: `skill://cap${root}/skills/cap-skill` };
}

describe.skipIf(!BWRAP_WORKS)('executor skills (needs bubblewrap to give the exec-server its own view of a path)', () => {
  it('lists, injects and reads capability-root skills through the executor only, and answers an unknown package as Codex does', async () => {
    const { root, view, capSkill, pkg } = capabilityRoot();
    writeFileSync(path.join(view, 'skills', 'cap-skill', 'notes.md'), 'Executor notes.\n');
    writeSkill(view, 'name: caproot-top\ndescription: The root itself is a package.', 'Top body.\n');
    writeSkill(path.join(view, 'skills', 'other'), 'name: other\ndescription: Another package.', 'Other body.\n');
    // A local skill of the same name: the executor's owns `$cap-skill`.
    writeSkill(path.join(home.home, 'skills', 'cap-skill'), 'name: cap-skill\ndescription: The local one.', 'LOCAL BODY\n');

    model.expect([
      sse(
        functionCall('list', {}, { namespace: 'skills', callId: 'c_list' }),
        // The filter the list took before it listed authorities, as an old thread's model sends it.
        functionCall('list', { authority: { kind: 'executor' } }, { namespace: 'skills', callId: 'c_legacy' }),
        functionCall('read', { package: 'e0/skills/cap-skill' }, { namespace: 'skills', callId: 'c_read' }),
        functionCall('read', { authority: { kind: 'executor', id: 'elsewhere' }, package: 'e0/skills/cap-skill' }, { namespace: 'skills', callId: 'c_wrong_authority' }),
        functionCall('read', { package: 'e0/skills/cap-skill', resource: `${pkg}/notes.md` }, { namespace: 'skills', callId: 'c_notes' }),
        functionCall('read', { package: 'e0/skills/no-such-skill' }, { namespace: 'skills', callId: 'c_unknown' }),
        functionCall('read', { package: `skill://cap${root}`, resource: `skill://cap${root}/skills/other/SKILL.md` }, { namespace: 'skills', callId: 'c_cross' }),
        functionCall('read', { package: 'e0/skills/cap-skill', resource: `${pkg}/../other/SKILL.md` }, { namespace: 'skills', callId: 'c_dots' }),
        completed(),
      ),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const url = await startExecServer(root, view);
    const client = spawnStdioClient(home);
    clients.push(client);
    await client.initialize();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', {
      cwd: home.workspace,
      approvalPolicy: 'never',
      environments: [{ environmentId: 'remote', cwd: root }],
      selectedCapabilityRoots: [
        { id: 'cap', location: { type: 'environment', environmentId: 'remote', path: root } },
        { id: 'elsewhere', location: { type: 'environment', environmentId: 'local', path: '/nowhere' } },
      ],
    })) as { thread: { id: string; path: string } };
    const { turn } = (await client.request('turn/start', { threadId: started.thread.id, input: text('Use $cap-skill.') })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);

    const [first, second] = model.requests;
    // Nothing the model received came from the host's copy of the root.
    for (const request of model.requests) expect(JSON.stringify(request.body)).not.toContain('HOST DECOY');
    const developer = first!.messageTexts('developer').join('\n');
    // The package catalog is its own <skills_instructions>, after the host one, as Codex places it.
    const catalog = developer.slice(developer.lastIndexOf('<skills_instructions>'), developer.lastIndexOf('</skills_instructions>') + '</skills_instructions>'.length);
    expect(catalog.replaceAll(root, '<ROOT>').replaceAll(home.home, '<HOME>')).toBe(golden('executor-catalog.txt').trimEnd());
    expect(first!.toolNames({ qualified: true })).toEqual(expect.arrayContaining(['skills.list', 'skills.read']));
    // `$cap-skill` injects the executor's SKILL.md, not the local one.
    const injected = first!.messageTexts('user').filter((message) => message.startsWith('<skill>'));
    expect(injected).toEqual([`<skill>\n<name>cap-skill</name>\n<path>${pkg}/SKILL.md</path>\n${readFileSync(capSkill, 'utf8')}\n</skill>`]);
    const warning = client.notifications.find((note) => note.method === 'warning' && JSON.stringify(note.params).includes('elsewhere'));
    expect(warning).toBeDefined();

    const listed = JSON.parse(second!.toolOutputText('c_list')!) as { skills: { authority: unknown; package: string; name: string; main_resource: string }[]; next_cursor: unknown };
    expect(listed.skills.map((skill) => skill.name).sort()).toEqual(['cap-skill', 'caproot-top', 'other']);
    expect(listed.skills.find((skill) => skill.name === 'cap-skill')).toEqual({ authority: { kind: 'executor', id: 'cap' }, package: pkg, name: 'cap-skill', description: 'Does the cap thing on the executor.', main_resource: `${pkg}/SKILL.md` });
    expect(listed).toMatchObject({ next_cursor: null, truncated: false });
    expect(JSON.parse(second!.toolOutputText('c_legacy')!)).toEqual(listed);
    expect(JSON.parse(second!.toolOutputText('c_read')!)).toEqual({ authority: { kind: 'executor', id: 'cap' }, resource: `${pkg}/SKILL.md`, contents: readFileSync(capSkill, 'utf8'), skill_root: path.join(root, 'skills', 'cap-skill'), next_cursor: null, truncated: false });
    expect(second!.toolOutputText('c_wrong_authority')).toBe('skill package is not available');
    expect(JSON.parse(second!.toolOutputText('c_notes')!)).toMatchObject({ resource: `${pkg}/notes.md`, contents: 'Executor notes.\n' });
    expect(second!.toolOutputText('c_unknown')).toBe('skill package is not available');
    expect(second!.toolOutputText('c_cross')).toContain('belongs to another package');
    expect(second!.toolOutputText('c_dots')).toContain('canonical');
    // The thread's own executor is not external context: no output is marked so in the rollout.
    expect(readFileSync(started.thread.path, 'utf8')).not.toContain('external_context');
    // The calls are not items a client sees (Codex shows none for them).
    expect(client.notifications.some((note) => note.method === 'item/started' && JSON.stringify(note.params).includes('skills'))).toBe(false);
    expect(client.schemaFailures).toEqual([]);
  });
  it('restores the capability roots on resume in a new app-server, and reads them through the executor again', async () => {
    const { root, view, capSkill, pkg } = capabilityRoot();
    const url = await startExecServer(root, view);
    const roots = [{ id: 'cap', location: { type: 'environment', environmentId: 'remote', path: root } }];
    const first = spawnStdioClient(home);
    clients.push(first);
    await first.initialize();
    await first.request('environment/add', { environmentId: 'remote', execServerUrl: url, authBearerToken: EXEC_TOKEN });
    const started = (await first.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', environments: [{ environmentId: 'remote', cwd: root }], selectedCapabilityRoots: roots })) as { thread: { id: string } };
    model.expect([sse(assistantMessage('Noted.'), completed())]);
    const { turn } = (await first.request('turn/start', { threadId: started.thread.id, input: text('Remember the cap skill.') })) as { turn: { id: string } };
    await first.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
    await first.close();

    // A new process: the roots come back from the rollout, not from this request.
    const second = spawnStdioClient(home);
    clients.push(second);
    await second.initialize();
    await second.request('environment/add', { environmentId: 'remote', execServerUrl: url, authBearerToken: EXEC_TOKEN });
    await second.request('thread/resume', { threadId: started.thread.id });
    model.expect([
      sse(functionCall('read', { package: 'e0/skills/cap-skill' }, { namespace: 'skills', callId: 'c_again' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const resumed = (await second.request('turn/start', { threadId: started.thread.id, input: text('Use $cap-skill now.'), environments: [{ environmentId: 'remote', cwd: root }] })) as { turn: { id: string } };
    await second.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === resumed.turn.id);

    const [, request, followUp] = model.requests;
    for (const sent of model.requests) expect(JSON.stringify(sent.body)).not.toContain('HOST DECOY');
    expect(request!.toolNames({ qualified: true })).toEqual(expect.arrayContaining(['skills.list', 'skills.read']));
    const injected = request!.messageTexts('user').filter((message) => message.startsWith('<skill>'));
    expect(injected).toEqual([`<skill>\n<name>cap-skill</name>\n<path>${pkg}/SKILL.md</path>\n${readFileSync(capSkill, 'utf8')}\n</skill>`]);
    expect(JSON.parse(followUp!.toolOutputText('c_again')!)).toMatchObject({ resource: `${pkg}/SKILL.md`, contents: readFileSync(capSkill, 'utf8') });
    expect(second.schemaFailures).toEqual([]);
  });
});
