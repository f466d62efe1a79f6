// The requests Codex's terminal UI sends before it shows anything (issue #13): `account/read`,
// `configRequirements/read`, `config/read` with a relative cwd and `skills/list`, answered as Codex
// 0.171.0 answers them with nobody signed in; no `configWarning` for Codex's client-side settings;
// and a relative cwd on thread/start, which Codex also resolves against its working directory. In
// process over both transports; every message is schema-checked.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_TOML, makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome, type Transport } from './support/app-server-harness.js';

interface Layered {
  config: Record<string, unknown>;
  origins: Record<string, { name: Record<string, unknown> }>;
  layers?: { name: Record<string, unknown> }[];
}

describe.each<Transport>(['stdio', 'websocket'])('start-up requests of Codex\'s TUI over %s', (transport) => {
  let home: TestHome | undefined;
  let running: InProcessServer | undefined;
  let client: AppServerTestClient | undefined;

  afterEach(async () => {
    await client?.close();
    await running?.close();
    home?.cleanup();
    client = undefined;
    running = undefined;
    home = undefined;
  });

  /** A server whose working directory is a workspace holding a trusted project `project/`. */
  async function serve(configToml: string = CONFIG_TOML): Promise<{ client: AppServerTestClient; home: TestHome; project: string }> {
    home = makeHome(configToml);
    const project = path.join(home.workspace, 'project');
    mkdirSync(path.join(project, '.codex'), { recursive: true });
    mkdirSync(path.join(project, '.git'));
    writeFileSync(path.join(project, '.codex', 'config.toml'), 'model_verbosity = "medium"\n');
    writeFileSync(path.join(home.home, 'config.toml'), `${configToml}\n[projects."${project}"]\ntrust_level = "trusted"\n`);
    running = await startInProcess(home, { threads: threadsOn(home) });
    client = await running.connect(transport);
    await client.initialize();
    return { client, home, project };
  }

  it('account/read: no account, and requiresOpenaiAuth from the active provider (mock: false)', async () => {
    const { client } = await serve();
    const expected = { account: null, userId: null, requiresOpenaiAuth: false, workspaceRouting: null };
    expect(await client.request('account/read', {})).toEqual(expected);
    expect(await client.request('account/read', { refreshToken: false })).toEqual(expected);
    // Codex wants the params member, and a boolean refreshToken.
    expect(await client.requestReply('account/read')).toMatchObject({ error: { code: -32600, message: 'Invalid request: missing field `params`' } });
    expect(await client.requestReply('account/read', { refreshToken: 'yes' })).toMatchObject({ error: { code: -32600 } });
  });

  it('account/read: requiresOpenaiAuth is true under the built-in openai provider', async () => {
    const { client } = await serve('');
    expect(await client.request('account/read', {})).toEqual({ account: null, userId: null, requiresOpenaiAuth: true, workspaceRouting: null });
  });

  it('configRequirements/read: no requirements, with params absent, null or empty', async () => {
    const { client } = await serve();
    const expected = { supportsIndependentSpeedModes: true, requirements: null };
    expect(await client.request('configRequirements/read')).toEqual(expected);
    expect(await client.request('configRequirements/read', null)).toEqual(expected);
    expect(await client.request('configRequirements/read', {})).toEqual(expected);
  });

  // Issue #13: the TUI showed two red error lines while skills/list answered -32601.
  it('skills/list: an entry without skills or errors for each cwd, echoed as sent; none given: the server\'s working directory', async () => {
    const { client, home, project } = await serve();
    expect(await client.request('skills/list', { cwds: [project, '.'] })).toEqual({
      data: [
        { cwd: project, skills: [], errors: [] },
        { cwd: '.', skills: [], errors: [] },
      ],
    });
    const here = { data: [{ cwd: home.workspace, skills: [], errors: [] }] };
    expect(await client.request('skills/list', {})).toEqual(here);
    expect(await client.request('skills/list', { cwds: [], forceReload: true })).toEqual(here);
    // As Codex: the params member is required, and cwds is a list.
    expect(await client.requestReply('skills/list')).toMatchObject({ error: { code: -32600, message: 'Invalid request: missing field `params`' } });
    expect(await client.requestReply('skills/list', { cwds: null })).toMatchObject({ error: { code: -32600 } });
  });

  // Issue #13: the TUI showed a warnings badge for the client-side settings a Codex config carries.
  it('sends no configWarning for the settings of Codex’s own clients, only for a key nobody knows', async () => {
    const { client } = await serve(`not_a_codex_key = 1\ncheck_for_update_on_startup = false\n${CONFIG_TOML}\n[analytics]\nenabled = false\n[feedback]\nenabled = false\n[tui]\nnotifications = true\n`);
    await client.waitFor('remoteControl/status/changed');
    // A round trip after the start-up notifications: anything else would have arrived by now.
    await client.request('account/read', {});
    const warnings = client.notificationsOf('configWarning') as { summary: string }[];
    expect(warnings.map((warning) => warning.summary)).toEqual([expect.stringContaining('not_a_codex_key')]);
  });

  it('config/read: a relative cwd is the server\'s working directory\'s, as the TUI sends "."', async () => {
    const { client, home, project } = await serve();
    const here = (await client.request('config/read', { includeLayers: true, cwd: '.' })) as Layered;
    const absolute = (await client.request('config/read', { includeLayers: true, cwd: home.workspace })) as Layered;
    expect(here).toEqual(absolute);

    const relative = (await client.request('config/read', { includeLayers: true, cwd: 'project' })) as Layered;
    const dotCodexFolder = path.join(project, '.codex');
    expect(relative.layers!.map((layer) => layer.name)[0]).toEqual({ type: 'project', dotCodexFolder });
    expect(relative.config.model_verbosity).toBe('medium');
    expect(relative.origins.model_verbosity?.name).toEqual({ type: 'project', dotCodexFolder });
  });

  it('thread/start: a relative cwd is the server\'s working directory\'s, as Codex starts it', async () => {
    const { client, home, project } = await serve();
    const inProject = (await client.request('thread/start', { cwd: 'project' })) as { cwd: string; thread: { cwd: string } };
    expect(inProject.cwd).toBe(project);
    expect(inProject.thread.cwd).toBe(project);
    const here = (await client.request('thread/start', { cwd: '.' })) as { cwd: string; thread: { cwd: string } };
    expect(here.cwd).toBe(home.workspace);
    expect(here.thread.cwd).toBe(home.workspace);
  });
});
