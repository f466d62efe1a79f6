// Remote skills: `mcp/skill` resources of real MCP servers (the SDK's, over stdio) marked
// `skein_skill_source = true`, listed and read through `skills.list` / `skills.read` with no executor
// at all. A server that never answers costs one discovery per thread: its warning is kept.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'skills-mcp-server.mjs');
/** The fixture's large SKILL.md, as it builds it. */
const FIXTURE_SKILL = `---\nname: deploy\ndescription: Deploys.\n---\n${'Step "one"\n'.repeat(2000)}`;

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

const log = (name: string) => path.join(path.dirname(home.workspace), `${name}.log`);

function addServers(extra = ''): void {
  const table = (name: string, behaviour: string, more: string) =>
    `\n[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE)}, "${behaviour}"]\nskein_skill_source = true\n${more}env = { MCP_LOG = ${JSON.stringify(log(name))} }\n`;
  appendFileSync(path.join(home.home, 'config.toml'), `${extra}${table('hub', 'catalog', '')}${table('stuck', 'hang', 'tool_timeout_sec = 2\n')}`);
}

async function appServer(): Promise<AppServerTestClient> {
  const client = spawnStdioClient(home);
  clients.push(client);
  await client.initialize();
  return client;
}

const runTurn = runTurnToEnd;

describe('remote skills from MCP servers', () => {
  it('lists mcp/skill resources over two pages, reads them in 8 KB parts, and discovers a hanging server once per thread', async () => {
    addServers();
    model.expect([
      sse(
        functionCall('list', {}, { namespace: 'skills', callId: 'c_list' }),
        // The filter the list took before it listed authorities, as an old thread's model sends it.
        functionCall('list', { authority: { kind: 'cloud' } }, { namespace: 'skills', callId: 'c_legacy' }),
        functionCall('read', { authority: { kind: 'remote', id: 'hub' }, package: 'skill://hub/deploy' }, { namespace: 'skills', callId: 'c_read' }),
        functionCall('read', { package: 'skill://hub/deploy', resource: 'skill://hub/deploy/checklist.md' }, { namespace: 'skills', callId: 'c_child' }),
        functionCall('read', { package: 'skill://hub/deploy', resource: 'skill://hub/alpha/SKILL.md' }, { namespace: 'skills', callId: 'c_other' }),
        functionCall('read', { package: 'skill://hub/nothing' }, { namespace: 'skills', callId: 'c_unknown' }),
        completed(),
      ),
      sse(assistantMessage('Read it.'), completed()),
    ]);
    const client = await appServer();
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string; path: string } };
    await runTurn(client, thread.id, 'Deploy with the hosted skill.');

    const [first, second] = model.requests;
    const developer = first!.messageTexts('developer').join('\n');
    // The package catalog, after the host one: only the `mcp/skill` resources, a malformed URI left out.
    const catalog = developer.slice(developer.lastIndexOf('<skills_instructions>'), developer.lastIndexOf('</skills_instructions>') + '</skills_instructions>'.length);
    expect(catalog).toBe(readFileSync(path.join(import.meta.dirname, 'fixtures', 'skills', 'remote-catalog.txt'), 'utf8').trimEnd());
    expect(first!.toolNames({ qualified: true })).toEqual(expect.arrayContaining(['skills.list', 'skills.read']));

    const listed = JSON.parse(second!.toolOutputText('c_list')!) as { skills: { authority: unknown; package: string; name: string }[] };
    expect(listed.skills.map((skill) => [skill.name, skill.package, skill.authority])).toEqual([
      ['deploy', 'skill://hub/deploy', { kind: 'remote', id: 'hub' }],
      ['demo:alpha', 'skill://hub/alpha', { kind: 'remote', id: 'hub' }],
    ]);
    expect(JSON.parse(second!.toolOutputText('c_legacy')!)).toEqual(listed);
    const output = second!.toolOutputText('c_read')!;
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(8 * 1024);
    const part = JSON.parse(output) as { authority: unknown; resource: string; contents: string; next_cursor: string | null; truncated: boolean };
    expect(part).toMatchObject({ authority: { kind: 'remote', id: 'hub' }, resource: 'skill://hub/deploy/SKILL.md', truncated: true });
    expect(part.next_cursor).toEqual(expect.any(String));
    expect(JSON.parse(second!.toolOutputText('c_child')!)).toEqual({ authority: { kind: 'remote', id: 'hub' }, resource: 'skill://hub/deploy/checklist.md', contents: 'Check twice.\n', next_cursor: null, truncated: false });
    expect(second!.toolOutputText('c_other')).toContain('not part of the package');
    expect(second!.toolOutputText('c_unknown')).toBe('skill package is not available');
    // What the orchestrator's server served is marked external context in the rollout; refusals are not.
    const outputs = readFileSync(thread.path, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { payload: { type?: string; call_id?: string; metadata?: { external_context?: boolean } } }).payload);
    const marked: Record<string, boolean> = Object.fromEntries(outputs.filter((payload) => payload.type === 'function_call_output').map((payload) => [payload.call_id ?? '', payload.metadata?.external_context ?? false]));
    expect(marked).toEqual({ c_list: true, c_legacy: true, c_read: true, c_child: true, c_other: false, c_unknown: false });

    // The next turn continues the read from the cursor; the hanging server is not asked again.
    model.expect([sse(functionCall('read', { package: 'skill://hub/deploy', cursor: part.next_cursor }, { namespace: 'skills', callId: 'c_more' }), completed()), sse(assistantMessage('Done.'), completed())]);
    await runTurn(client, thread.id, 'Go on.');
    const more = model.requests[3]!.toolOutputText('c_more')!;
    expect(Buffer.byteLength(more)).toBeLessThanOrEqual(8 * 1024);
    const continued = JSON.parse(more) as { contents: string; next_cursor: string | null };
    // The second part starts where the first ended; the 22 KB file needs more parts still.
    expect(FIXTURE_SKILL.startsWith(part.contents + continued.contents)).toBe(true);
    expect(continued.contents.length).toBeGreaterThan(0);
    expect(continued.next_cursor).toEqual(expect.any(String));

    const stuckWarnings = client.notifications.filter((note) => note.method === 'warning' && JSON.stringify(note.params).includes("'stuck'"));
    expect(stuckWarnings).toHaveLength(1);
    // Asked at most once in the thread (under load the discovery may time out before the server even
    // starts and logs its first request); the kept outcome answers the second turn.
    const stuckLists = existsSync(log('stuck')) ? readFileSync(log('stuck'), 'utf8').trim().split('\n') : [];
    expect(stuckLists.filter((line) => line === 'list').length).toBeLessThanOrEqual(1);
    expect(readFileSync(log('hub'), 'utf8').trim().split('\n')).toEqual(['list', 'list page-2']);
    expect(client.schemaFailures).toEqual([]);
  });

  it('hides remote skills and the skills tools when [orchestrator.skills] is off', async () => {
    addServers('\n[orchestrator.skills]\nenabled = false\n');
    model.expect([sse(assistantMessage('Hi.'), completed())]);
    const client = await appServer();
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurn(client, thread.id, 'Hello.');
    const request = model.requests[0]!;
    expect(request.messageTexts('developer').join('\n')).not.toContain('skill://hub');
    expect(request.toolNames({ qualified: true }).some((name) => name.startsWith('skills.'))).toBe(false);
    expect(existsSync(log('hub'))).toBe(false);
    expect(client.schemaFailures).toEqual([]);
  });
});
