// config/read, model/list and experimentalFeature/list over both transports of the built binary,
// with `-c` overrides and a trusted project layer (CODEX-FACTS §12.11).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_REGISTRY } from '@skein/features';
import { AppServerTestClient } from '@skein/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TOML, makeHome, spawnStdioClient, startWebSocketProcess, TOKEN, type TestHome, type Transport, type WebSocketProcess } from './support/app-server-harness.js';

interface Layered {
  config: Record<string, unknown>;
  origins: Record<string, { name: Record<string, unknown>; version: string }>;
  layers?: { name: Record<string, unknown>; version: string; config: Record<string, unknown> }[];
}

describe.each<Transport>(['stdio', 'websocket'])('config/read, model/list, experimentalFeature/list over %s', (transport) => {
  let home: TestHome;
  let project: string;
  let wsServer: WebSocketProcess | undefined;
  let client: AppServerTestClient;
  const overrides = ['-c', 'features.multi_agent_v2=true', '-c', 'model_reasoning_effort="high"'];

  beforeAll(async () => {
    project = '';
    home = makeHome();
    project = path.join(home.workspace, 'project');
    mkdirSync(path.join(project, '.codex'), { recursive: true });
    mkdirSync(path.join(project, '.git'));
    writeFileSync(path.join(project, '.codex', 'config.toml'), 'model_verbosity = "medium"\n');
    writeFileSync(path.join(home.home, 'config.toml'), `${CONFIG_TOML}\n[projects."${project}"]\ntrust_level = "trusted"\n`);
    if (transport === 'websocket') {
      wsServer = await startWebSocketProcess(home);
    }
    // The WebSocket server runs without overrides; stdio gets them, so both paths are covered.
    client = wsServer === undefined ? spawnStdioClient(home, overrides) : await AppServerTestClient.connectWebSocket(wsServer.url, { token: TOKEN });
    await client.initialize();
  });
  afterAll(async () => {
    await client.close();
    await wsServer?.stop();
    home.cleanup();
  });

  it('config/read: the effective config with Codex\'s keys, each key\'s origin, and the layers on request', async () => {
    const userFile = path.join(home.home, 'config.toml');
    const userVersion = `sha256:${createHash('sha256').update(readFileSync(userFile)).digest('hex')}`;
    const result = (await client.request('config/read', {})) as Layered;
    expect(result.layers).toBeUndefined();
    expect(Object.keys(result.config)).toContain('shell_environment_policy');
    // The tables Codex reports whatever the config says, with its defaults.
    expect(result.config).toMatchObject({
      history: { persistence: 'save-all', max_bytes: null },
      shell_environment_policy: { inherit: null, ignore_default_excludes: null, exclude: null, set: null, include_only: null, filters: null, experimental_use_profile: null },
      marketplaces: {},
      plugins: {},
    });
    expect(result.config).toMatchObject({ model: 'gpt-5.5', model_provider: 'mock', project_doc_max_bytes: 4096, sandbox_mode: null, project_root_markers: ['.git'] });
    expect(result.config.model_providers).toEqual({
      mock: expect.objectContaining({ name: 'Mock', base_url: 'http://127.0.0.1:9/v1', env_key: 'SKEIN_TEST_API_KEY', request_max_retries: 0, stream_max_retries: null, supports_websockets: false }) as unknown,
    });
    expect(result.origins['model_providers.mock.base_url']).toEqual({ name: { type: 'user', file: userFile, profile: null }, version: userVersion });

    const layered = (await client.request('config/read', { includeLayers: true, cwd: project })) as Layered;
    const names = layered.layers!.map((layer) => layer.name);
    // Highest first, down to the machine-wide file, which Codex lists even when it does not exist.
    const expected: Record<string, unknown>[] = [{ type: 'project', dotCodexFolder: path.join(project, '.codex') }, { type: 'user', file: userFile, profile: null }, { type: 'system', file: '/etc/codex/config.toml' }];
    if (transport === 'stdio') expected.unshift({ type: 'sessionFlags' });
    expect(names).toEqual(expected);
    expect(layered.config.model_verbosity).toBe('medium');
    expect(layered.origins.model_verbosity?.name).toEqual({ type: 'project', dotCodexFolder: path.join(project, '.codex') });
    if (transport === 'stdio') {
      expect(layered.config.model_reasoning_effort).toBe('high');
      expect(layered.origins['features.multi_agent_v2']?.name).toEqual({ type: 'sessionFlags' });
      expect(layered.layers![0]!.config).toEqual({ features: { multi_agent_v2: true }, model_reasoning_effort: 'high' });
    }
  });

  it('model/list: the catalog with the default marked, paginated by cursor', async () => {
    const all = (await client.request('model/list', {})) as { data: { id: string; isDefault: boolean; supportedReasoningEfforts: unknown[] }[]; nextCursor: string | null };
    expect(all.nextCursor).toBeNull();
    // Codex 0.171.0's picker: 11 listed models in its order, 14 with the hidden ones (CODEX-FACTS §12.11).
    expect(all.data.map((model) => model.id)).toEqual([
      'gpt-6.2-sol',
      'gpt-6.2-astra',
      'gpt-6.1-terra',
      'gpt-6.1-sol',
      'gpt-6-astra',
      'gpt-6-sol',
      'gpt-6-luna',
      'gpt-5.6-sol',
      'gpt-5.6-terra',
      'gpt-5.6-luna',
      'gpt-5.5',
    ]);
    // Codex's catalog default, not the configured gpt-5.5: Codex's TUI moved a user whose configured
    // model was marked default to its upgrade and wrote it into config.toml (issue #35).
    expect(all.data.filter((model) => model.isDefault).map((model) => model.id)).toEqual(['gpt-6.2-sol']);
    // What Codex's TUI shows on its migration screen: the newer model, with text of our own.
    const upgrades = (all.data as unknown as { id: string; upgrade: string | null; upgradeInfo: { model: string; migrationMarkdown: string } | null }[]).filter((model) => model.upgrade !== null);
    expect(upgrades.map((model) => [model.id, model.upgrade, model.upgradeInfo?.model])).toEqual([
      ['gpt-5.6-sol', 'gpt-6-sol', 'gpt-6-sol'],
      ['gpt-5.6-terra', 'gpt-6-sol', 'gpt-6-sol'],
      ['gpt-5.6-luna', 'gpt-6-luna', 'gpt-6-luna'],
      ['gpt-5.5', 'gpt-6-sol', 'gpt-6-sol'],
    ]);
    expect(upgrades[0]!.upgradeInfo).toEqual({ model: 'gpt-6-sol', upgradeCopy: null, modelLink: null, migrationMarkdown: expect.stringContaining('GPT-6-Sol is available') as unknown, retirementAt: null });
    const hidden = (await client.request('model/list', { includeHidden: true })) as { data: { id: string; hidden: boolean }[] };
    // The catalog facts Codex fills per model: its multi-agent tool generation, a specialty, an announcement.
    const facts = (hidden.data as unknown as { id: string; multiAgentVersion: string | null; modelSpecialty: string | null; availabilityNux: unknown }[]).map((model) => [model.id, model.multiAgentVersion, model.modelSpecialty, model.availabilityNux !== null]);
    expect(facts.filter(([, version]) => version !== 'v2')).toEqual([
      ['gpt-5.6-luna', 'v1', null, false],
      ['gpt-5.5', null, null, false],
      ['codex-auto-review', 'v1', null, false],
    ]);
    expect(facts.filter(([, , specialty, announced]) => specialty !== null || announced === true).map(([id, , specialty]) => [id, specialty])).toEqual([
      ['gpt-6.1-sol', null],
      ['gpt-daybreak-blue-latest', 'cyber'],
      ['gpt-daybreak-red-latest', 'cyber'],
    ]);
    expect(hidden.data.filter((model) => model.hidden).map((model) => model.id)).toEqual(['gpt-daybreak-blue-latest', 'gpt-daybreak-red-latest', 'codex-auto-review']);
    expect(hidden.data.map((model) => model.id).slice(-3)).toEqual(['gpt-daybreak-red-latest', 'gpt-5.5', 'codex-auto-review']);
    // The Fast (`priority`) tier where Codex's catalog offers it: not on the daybreak models; the
    // default tier of gpt-6-sol and gpt-6-luna.
    const tiers = (hidden.data as unknown as { id: string; serviceTiers: { id: string; name: string }[]; additionalSpeedTiers: string[]; defaultServiceTier: string | null }[]).map((model) => [
      model.id,
      model.serviceTiers.map((tier) => `${tier.id}:${tier.name}`).join(),
      model.additionalSpeedTiers.join(),
      model.defaultServiceTier,
    ]);
    expect(tiers.filter(([, offered]) => offered === '').map(([id]) => id)).toEqual(['gpt-daybreak-blue-latest', 'gpt-daybreak-red-latest']);
    expect(tiers.filter(([, offered]) => offered !== '').every(([, offered, speed]) => offered === 'priority:Fast' && speed === 'fast')).toBe(true);
    expect(tiers.filter(([, , , tier]) => tier !== null).map(([id, , , tier]) => `${id}=${tier}`)).toEqual(['gpt-6-sol=priority', 'gpt-6-luna=priority']);
    const first = (await client.request('model/list', { limit: 1, includeHidden: true })) as { data: unknown[]; nextCursor: string | null };
    expect(first.data).toHaveLength(1);
    expect(first.nextCursor).toBe('1');
    expect(await client.requestReply('model/list', { cursor: 'bogus' })).toEqual({ error: { code: -32600, message: 'invalid cursor: bogus' } });
  });

  it('experimentalFeature/list: every registered flag, its stage, default and effective state, page by page', async () => {
    const seen: { name: string; stage: string; enabled: boolean; defaultEnabled: boolean; displayName: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const page = (await client.request('experimentalFeature/list', cursor === null ? { limit: 50 } : { limit: 50, cursor })) as { data: typeof seen; nextCursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(50);
      seen.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor !== null);
    // Every flag once, in Codex's order (probed: not sorted by key), Skein's own after Codex's.
    const names = seen.map((feature) => feature.name);
    expect([...names].sort()).toEqual(FEATURE_REGISTRY.map((spec) => spec.key).sort());
    expect(names.slice(0, 5)).toEqual(['analytics_plan_history', 'cli_resume_account_check', 'daemon_auto_start', 'tui_workspace', 'tui_multi_backend']);
    expect(names.at(-1)).toBe('auto_compaction');
    const multiAgent = seen.find((feature) => feature.name === 'multi_agent_v2');
    expect(multiAgent?.enabled).toBe(transport === 'stdio');
    for (const feature of seen) {
      const spec = FEATURE_REGISTRY.find((candidate) => candidate.key === feature.name)!;
      expect(feature.stage).toBe(spec.stage);
      expect(feature.defaultEnabled).toBe(spec.defaultEnabled);
      expect(feature.displayName === null).toBe(spec.stage !== 'beta');
    }
  });
});
