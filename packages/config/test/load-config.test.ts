// Loads real config files from temporary home and project folders.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_SIDE_CONFIG_KEYS, CODEX_CONFIG_KEYS, ConfigError, loadConfig, type LoadConfigOptions } from '../src/index.js';
import { SKEIN_CONFIG_KEYS } from '../src/config-toml.js';

let scratch: string;
let home: string;
let project: string;

beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-config-'));
  home = path.join(scratch, 'home', '.codex');
  project = path.join(scratch, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(project, '.git'), { recursive: true });
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const userConfig = (text: string) => write(path.join(home, 'config.toml'), text);
// The machine-wide file of these tests (the real one is /etc/codex/config.toml).
const systemFile = () => path.join(scratch, 'etc', 'codex', 'config.toml');
const load = (options: Partial<LoadConfigOptions> = {}) => loadConfig({ cwd: project, env: {}, homeDir: home, systemConfigFile: systemFile(), ...options });

async function loadError(options: Partial<LoadConfigOptions> = {}): Promise<ConfigError> {
  try {
    await load(options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to fail');
}

describe('defaults', () => {
  it('loads without any config file', async () => {
    const { config, warnings } = await load();
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      // Codex 0.171.0's default model.
      model: 'gpt-6.2-sol',
      modelProviderId: 'openai',
      approvalPolicy: 'on-request',
      sandboxMode: 'read-only',
      projectDocMaxBytes: 32768,
      projectRootMarkers: ['.git'],
      toolOutputTokenLimit: undefined,
      orchestrator: { skillsEnabled: true, mcpEnabled: true },
    });
    expect(config.modelProvider.baseUrl).toBe('https://api.openai.com/v1');
    expect(config.features.isEnabled('goals')).toBe(true);
  });

  it('reads the history and project-root settings', async () => {
    userConfig('tool_output_token_limit = 2500\nproject_root_markers = [".hg", ".git"]\n');
    const { config } = await load();
    expect(config).toMatchObject({ toolOutputTokenLimit: 2500, projectRootMarkers: ['.hg', '.git'] });
    await expect(loadConfig({ cwd: project, env: { CODEX_HOME: home }, overrides: ['tool_output_token_limit=0'] })).rejects.toThrow(/tool_output_token_limit/);
  });

  it('reads [code_mode] with Codex defaults, and names a bad value', async () => {
    expect((await load()).config.codeMode).toEqual({ defaultExecYieldTimeMs: 30_000, excludedToolNamespaces: [], directOnlyToolNamespaces: [], toolInputSchemaMaxBytes: undefined });
    userConfig('[code_mode]\ndefault_exec_yield_time_ms = 5000\nexcluded_tool_namespaces = ["mcp__big"]\ndirect_only_tool_namespaces = ["mcp__docs"]\ntool_input_schema_max_bytes = 2048\n');
    expect((await load()).config.codeMode).toEqual({ defaultExecYieldTimeMs: 5000, excludedToolNamespaces: ['mcp__big'], directOnlyToolNamespaces: ['mcp__docs'], toolInputSchemaMaxBytes: 2048 });
    await expect(loadConfig({ cwd: project, env: { CODEX_HOME: home }, overrides: ['code_mode.default_exec_yield_time_ms=-1'] })).rejects.toThrow(/code_mode\.default_exec_yield_time_ms/);
    await expect(loadConfig({ cwd: project, env: { CODEX_HOME: home }, overrides: ['code_mode.excluded_tool_namespaces="mcp__big"'] })).rejects.toThrow(/code_mode\.excluded_tool_namespaces/);
  });

  it('is deeply immutable', async () => {
    const { config } = await load();
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.sandboxWorkspaceWrite.writableRoots)).toBe(true);
    expect(Object.isFrozen(config.modelProvider.httpHeaders)).toBe(true);
  });
});

describe('the home directory', () => {
  it('reads config.toml from SKEIN_HOME, else CODEX_HOME', async () => {
    const skeinHome = path.join(scratch, 'skein-home');
    write(path.join(skeinHome, 'config.toml'), 'model = "from-skein-home"\n');
    userConfig('model = "from-codex-home"\n');
    const base = { cwd: project };
    expect((await loadConfig({ ...base, env: { SKEIN_HOME: skeinHome, CODEX_HOME: home } })).config.model).toBe('from-skein-home');
    expect((await loadConfig({ ...base, env: { CODEX_HOME: home } })).config.model).toBe('from-codex-home');
    expect((await loadConfig({ ...base, env: { SKEIN_HOME: '', CODEX_HOME: home } })).config.homeDir).toBe(home);
  });
});

describe('layering', () => {
  const providers = `
[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:9/v1"
env_key = "MOCK_KEY"
request_max_retries = 0
`;

  it('stacks the system file < user file < profile < trusted project files (root, then closer) < -c overrides', async () => {
    write(systemFile(), 'model = "system"\nmodel_context_window = 64000\n');
    userConfig(`
model = "user"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "workspace-write"
model_verbosity = "low"
developer_instructions = "user"
profile = "work"
${providers}
[projects."${project}"]
trust_level = "trusted"

[profiles.work]
model = "profile"
approval_policy = "untrusted"
model_verbosity = "medium"
`);
    write(path.join(project, '.codex', 'config.toml'), 'model = "project-root"\nmodel_verbosity = "high"\nmodel_reasoning_effort = "low"\n');
    const sub = path.join(project, 'pkg', 'sub');
    write(path.join(project, 'pkg', '.codex', 'config.toml'), 'model = "project-pkg"\n');
    mkdirSync(sub, { recursive: true });

    const { config } = await load({ cwd: sub, overrides: ['model_reasoning_effort=xhigh'] });
    expect(config.model).toBe('project-pkg');
    expect(config.modelVerbosity).toBe('high');
    expect(config.approvalPolicy).toBe('untrusted');
    expect(config.sandboxMode).toBe('workspace-write');
    expect(config.developerInstructions).toBe('user');
    expect(config.modelReasoningEffort).toBe('xhigh');
    expect(config.profile).toBe('work');
    // The system file's value stands where no layer above sets the key.
    expect(config.modelContextWindow).toBe(64000);
    expect(config.layers.map((layer) => layer.name.type)).toEqual(['system', 'user', 'profile', 'project', 'project', 'sessionFlags']);
    // Listed even without a file, as Codex lists it.
    rmSync(systemFile());
    expect((await load()).config.layers[0]).toEqual({ name: { type: 'system', file: systemFile() }, origin: systemFile(), table: {} });
  });

  it('takes a profile the system file selects and defines', async () => {
    write(systemFile(), 'profile = "ci"\n[profiles.ci]\nmodel = "from-system-profile"\n');
    const { config } = await load();
    expect(config.profile).toBe('ci');
    expect(config.model).toBe('from-system-profile');
    expect(config.layers.map((layer) => layer.name.type)).toEqual(['system', 'user', 'profile']);
  });

  it('merges tables key by key across layers', async () => {
    userConfig(`${providers}\n[sandbox_workspace_write]\nwritable_roots = ["/data"]\nnetwork_access = false\n`);
    const { config } = await load({ overrides: ['sandbox_workspace_write.network_access=true', 'model_providers.mock.stream_max_retries=2'] });
    expect(config.sandboxWorkspaceWrite).toEqual({ writableRoots: ['/data'], networkAccess: true, excludeTmpdirEnvVar: false, excludeSlashTmp: false });
    expect(config.modelProviders.mock).toMatchObject({ requestMaxRetries: 0, streamMaxRetries: 2, envKey: 'MOCK_KEY' });
  });

  it('--profile overrides profile = "…", and profiles select providers', async () => {
    userConfig(`profile = "a"\n${providers}\n[profiles.a]\nmodel = "a"\n[profiles.b]\nmodel = "b"\nmodel_provider = "mock"\n`);
    expect((await load()).config.model).toBe('a');
    const { config } = await load({ profile: 'b' });
    expect(config.model).toBe('b');
    expect(config.modelProvider).toMatchObject({ id: 'mock', baseUrl: 'http://127.0.0.1:9/v1', streamIdleTimeoutMs: 300000 });
  });

  it('-c profile=… selects a profile too', async () => {
    userConfig('[profiles.fast]\nmodel = "fast"\n');
    expect((await load({ overrides: ['profile=fast'] })).config.model).toBe('fast');
  });

  it('ignores an untrusted project config, with a warning that says how to trust it', async () => {
    userConfig('model = "user"\n');
    write(path.join(project, '.codex', 'config.toml'), 'model = "project"\n');
    const { config, warnings } = await load();
    expect(config.model).toBe('user');
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'UntrustedProjectConfig', origin: path.join(project, '.codex', 'config.toml') }),
    ]);
    expect(warnings[0]?.message).toContain(`[projects."${project}"]`);
  });

  it("gives a trusted project's .codex/hooks.json a layer of its own when no config.toml is beside it; an untrusted one only a warning", async () => {
    const projectFile = path.join(project, '.codex', 'config.toml');
    write(path.join(project, '.codex', 'hooks.json'), '{"hooks":{}}');
    const untrusted = await load();
    expect(untrusted.config.layers.some((layer) => layer.name.type === 'project')).toBe(false);
    expect(untrusted.warnings).toEqual([expect.objectContaining({ code: 'UntrustedProjectConfig', origin: path.join(project, '.codex', 'hooks.json') })]);
    userConfig(`[projects."${project}"]\ntrust_level = "trusted"\n`);
    const trusted = await load();
    expect(trusted.warnings).toEqual([]);
    expect(trusted.config.layers.find((layer) => layer.name.type === 'project')).toMatchObject({ name: { type: 'project', file: projectFile }, table: {} });
  });

  it('honours an explicit untrusted entry closer to the cwd', async () => {
    const sub = path.join(project, 'vendor');
    mkdirSync(sub);
    userConfig(`[projects."${project}"]\ntrust_level = "trusted"\n[projects."${sub}"]\ntrust_level = "untrusted"\n`);
    write(path.join(project, '.codex', 'config.toml'), 'model = "project"\n');
    expect((await load({ cwd: sub })).config.model).toBe('gpt-6.2-sol');
    expect((await load()).config.model).toBe('project');
  });

  it('collects [skein] extensions from every layer, each resolved from the directory of the file naming it', async () => {
    userConfig(`profile = "work"\n[skein]\nextensions = ["@acme/skein-todo"]\n[projects."${project}"]\ntrust_level = "trusted"\n[profiles.work.skein]\nextensions = ["./profile-ext.mjs"]\n`);
    write(path.join(project, '.codex', 'config.toml'), '[skein]\nextensions = ["./tools/project-ext.mjs"]\n');
    const { config, warnings } = await load({ overrides: ['skein.extensions=["./flag-ext.mjs"]'] });
    expect(warnings).toEqual([]);
    const userFile = path.join(home, 'config.toml');
    expect(config.extensions).toEqual([
      { spec: '@acme/skein-todo', baseDir: home, origin: userFile },
      { spec: './profile-ext.mjs', baseDir: home, origin: `profile "work" (${userFile})` },
      { spec: './tools/project-ext.mjs', baseDir: path.join(project, '.codex'), origin: path.join(project, '.codex', 'config.toml') },
      { spec: './flag-ext.mjs', baseDir: project, origin: '-c' },
    ]);
  });

  it('loads no extension from an untrusted project', async () => {
    userConfig('[skein]\nextensions = ["./mine.mjs"]\n');
    write(path.join(project, '.codex', 'config.toml'), '[skein]\nextensions = ["./evil.mjs"]\n');
    const { config, warnings } = await load();
    expect(config.extensions.map((source) => source.spec)).toEqual(['./mine.mjs']);
    expect(warnings.map((warning) => warning.code)).toEqual(['UntrustedProjectConfig']);
  });

  it('refuses a [skein] extensions value that is not a list of specs', async () => {
    userConfig('[skein]\nextensions = "./one.mjs"\n');
    expect((await loadError()).message).toContain('skein.extensions');
  });

  it('reads base instructions from model_instructions_file relative to the file that sets it', async () => {
    write(path.join(home, 'prompts', 'base.md'), 'Be brief.');
    userConfig('model_instructions_file = "prompts/base.md"\ninstructions = "ignored"\n');
    expect((await load()).config.baseInstructions).toBe('Be brief.');
    userConfig('instructions = "inline"\n');
    expect((await load()).config.baseInstructions).toBe('inline');
  });
});

describe('features through config', () => {
  it('applies [features] of each layer, then -c features.x, then --enable/--disable', async () => {
    userConfig('[features]\ngoals = false\ncode_mode = false\n');
    const { config, warnings } = await load({
      overrides: ['features.code_mode=true', 'features.current_time_reminder=true'],
      disable: ['code_mode'],
      enable: ['goals'],
    });
    expect(config.features.isEnabled('goals')).toBe(true);
    expect(config.features.isEnabled('code_mode')).toBe(false);
    expect(config.features.isEnabled('current_time_reminder')).toBe(true);
    // Only a feature that ends up on is worth the under-development warning.
    expect(warnings.map(({ code, key, origin }) => [code, key, origin])).toEqual([
      ['UnderDevelopmentEnabled', 'features.current_time_reminder', '-c features.current_time_reminder=true'],
    ]);
  });

  it('reports an invalid feature value with the file and the dotted key', async () => {
    userConfig('[features.rollout_budget]\nenabled = true\nlimit_tokens = -5\n');
    const error = await loadError();
    expect(error.code).toBe('InvalidFeature');
    expect(error.message).toContain(path.join(home, 'config.toml'));
    expect(error.message.startsWith(`${path.join(home, 'config.toml')}: features.rollout_budget.limit_tokens: `)).toBe(true);
  });

  it('rejects --enable / --disable of a feature that does not exist', async () => {
    const error = await loadError({ enable: ['gaols'] });
    expect(error).toMatchObject({ code: 'InvalidFeature', origin: '--enable gaols', key: 'features.gaols' });
    expect((await loadError({ disable: ['nope'] })).origin).toBe('--disable nope');
  });

  it('names the -c override that set a bad feature value', async () => {
    const error = await loadError({ overrides: ['features.goals="yes"'] });
    expect(error.code).toBe('InvalidFeature');
    expect(error.origin).toBe('-c features.goals="yes"');
  });
});

describe('unknown and unsupported keys', () => {
  it('warns for a key nobody knows, notes a Codex runtime key Skein does not act on yet, and says nothing of client keys', async () => {
    userConfig('check_for_update_on_startup = false\nnotify = ["say"]\nmodle = "typo"\n');
    const { warnings } = await load();
    expect(warnings.map(({ code, key }) => [code, key])).toEqual([
      ['NotYetSupported', 'notify'],
      ['UnknownKey', 'modle'],
    ]);
  });

  // Issue #13: Codex's TUI showed a warnings badge for check_for_update_on_startup, analytics and feedback.
  it('loads the settings of Codex’s own clients silently, as Codex does', async () => {
    expect([...CLIENT_SIDE_CONFIG_KEYS].every((key) => CODEX_CONFIG_KEYS.has(key) && !SKEIN_CONFIG_KEYS.has(key))).toBe(true);
    expect([...CLIENT_SIDE_CONFIG_KEYS]).toEqual(expect.arrayContaining(['check_for_update_on_startup', 'analytics', 'feedback', 'tui']));
    // A table each: the value is not looked at, only the key.
    userConfig([...CLIENT_SIDE_CONFIG_KEYS].map((key) => `[${key}]\nenabled = false\n`).join(''));
    expect((await load()).warnings).toEqual([]);
  });

  it('--strict-config turns both into errors', async () => {
    userConfig('check_for_update_on_startup = false\n');
    expect((await loadError({ strict: true })).code).toBe('UnknownKey');
    userConfig('modle = "typo"\n');
    const error = await loadError({ strict: true });
    expect(error).toMatchObject({ code: 'UnknownKey', key: 'modle', origin: path.join(home, 'config.toml') });
  });

  it('warns about redefining a built-in provider and keeps the built-in', async () => {
    userConfig('[model_providers.openai]\nname = "Mine"\nbase_url = "http://127.0.0.1:1/v1"\n');
    const { config, warnings } = await load();
    expect(config.modelProviders.openai?.baseUrl).toBe('https://api.openai.com/v1');
    expect(warnings).toEqual([expect.objectContaining({ code: 'BuiltInProviderRedefined', key: 'model_providers.openai' })]);
    userConfig('openai_base_url = "http://127.0.0.1:2/v1"\n');
    expect((await load()).config.modelProvider.baseUrl).toBe('http://127.0.0.1:2/v1');
  });

  it('moves the local providers to CODEX_OSS_BASE_URL, and marks them as unable to run hosted tools', async () => {
    userConfig('model_provider = "ollama"\n[model_providers.proxy]\nname = "Proxy"\nbase_url = "http://127.0.0.1:3/v1"\n');
    const { config } = await load({ env: { CODEX_OSS_BASE_URL: 'http://127.0.0.1:4/v1' } });
    expect(config.modelProvider).toMatchObject({ id: 'ollama', baseUrl: 'http://127.0.0.1:4/v1', runsHostedTools: false });
    expect(config.modelProviders.lmstudio).toMatchObject({ baseUrl: 'http://127.0.0.1:4/v1', runsHostedTools: false });
    expect(config.modelProviders.openai?.runsHostedTools).toBe(true);
    expect(config.modelProviders.proxy?.runsHostedTools).toBe(true);
    expect((await load()).config.modelProvider.baseUrl).toBe('http://localhost:11434/v1');
  });
});

describe('validation errors name the file, the key and what was expected', () => {
  const userFile = () => path.join(home, 'config.toml');

  it.each([
    ['approval_policy = "sometimes"', 'approval_policy'],
    ['approval_policy = { granular = { sandbox_approval = true } }', 'approval_policy'],
    ['sandbox_mode = "yolo"', 'sandbox_mode'],
    ['model_context_window = -1', 'model_context_window'],
    ['model_context_window = 1.5', 'model_context_window'],
    ['model_reasoning_effort = "extreme"', 'model_reasoning_effort'],
    ['model_verbosity = 3', 'model_verbosity'],
    ['project_doc_max_bytes = "big"', 'project_doc_max_bytes'],
    ['openai_base_url = "ftp://x"', 'openai_base_url'],
    ['[sandbox_workspace_write]\nwritable_roots = ["relative/dir"]', 'sandbox_workspace_write.writable_roots.0'],
    ['[model_providers.m]\nbase_url = "not a url"', 'model_providers.m.base_url'],
    ['[model_providers.m]\nrequest_max_retries = 1000', 'model_providers.m.request_max_retries'],
    ['[model_providers.m]\nhttp_headers = { X = 1 }', 'model_providers.m.http_headers.X'],
    ['[shell_environment_policy]\ninherit = "some"', 'shell_environment_policy.inherit'],
    ['[mcp_servers.docs]\nargs = ["x"]', 'mcp_servers.docs'],
    ['[orchestrator.skills]\nenabled = "yes"', 'orchestrator.skills.enabled'],
    ['[profiles.p]\nsandbox_mode = "nope"', 'profiles.p.sandbox_mode'],
    ['[projects."/x"]\ntrust_level = "maybe"', 'projects./x.trust_level'],
  ])('%s → %s', async (text, key) => {
    userConfig(`${text}\n`);
    const error = await loadError();
    expect(error).toMatchObject({ code: 'InvalidValue', origin: userFile(), key });
    expect(error.message.startsWith(`${userFile()}: ${key}: `)).toBe(true);
  });

  it('explains that the chat wire API is gone', async () => {
    userConfig('[model_providers.m]\nwire_api = "chat"\n');
    expect((await loadError()).message).toContain('use "responses"');
  });

  it('points at the line and column of a TOML syntax error', async () => {
    userConfig('model = "ok"\nsandbox_mode = \n');
    const error = await loadError();
    expect(error.code).toBe('InvalidToml');
    expect(error.origin).toBe(`${userFile()}:2:16`);
  });

  it('names the -c override that carries a bad value', async () => {
    const error = await loadError({ overrides: ['sandbox_mode=everything'] });
    expect(error).toMatchObject({ code: 'InvalidValue', origin: '-c sandbox_mode=everything', key: 'sandbox_mode' });
  });

  it('rejects an unknown profile and lists the defined ones', async () => {
    userConfig('[profiles.fast]\nmodel = "a"\n[profiles.deep]\nmodel = "b"\n');
    const error = await loadError({ profile: 'slow' });
    expect(error.code).toBe('UnknownProfile');
    expect(error.message).toContain('defined: deep, fast');
  });

  it('rejects a model_provider that is not defined', async () => {
    userConfig('model_provider = "nowhere"\n');
    const error = await loadError();
    expect(error).toMatchObject({ code: 'UnknownProvider', key: 'model_provider' });
    expect(error.message).toContain('lmstudio, ollama, openai');
  });

  it('rejects a missing model_instructions_file', async () => {
    userConfig('model_instructions_file = "missing.md"\n');
    expect((await loadError()).code).toBe('UnreadableFile');
  });

  it('rejects a relative SKEIN_HOME', async () => {
    await expect(loadConfig({ cwd: project, env: { SKEIN_HOME: 'relative' } })).rejects.toMatchObject({ code: 'InvalidHomeDir' });
  });
});

describe('[mcp_servers.*] skill sources', () => {
  it('lists the enabled servers marked skein_skill_source = true, sorted, and keeps the key on each table', async () => {
    userConfig([
      '[mcp_servers.zeta]\ncommand = "zeta-mcp"\nskein_skill_source = true',
      '[mcp_servers.alpha]\nurl = "https://skills.example.com/mcp"\nbearer_token_env_var = "SKILLS_TOKEN"\nskein_skill_source = true',
      '[mcp_servers.off]\ncommand = "off-mcp"\nskein_skill_source = true\nenabled = false',
      '[mcp_servers.tools]\ncommand = "tools-mcp"',
      '[mcp_servers.unmarked]\ncommand = "unmarked-mcp"\nskein_skill_source = false',
    ].join('\n') + '\n');
    const { config, warnings } = await load();
    expect(warnings).toEqual([]);
    expect(config.mcpSkillSources).toEqual(['alpha', 'zeta']);
    expect(config.mcpServers.alpha).toEqual({ url: 'https://skills.example.com/mcp', bearer_token_env_var: 'SKILLS_TOKEN', skein_skill_source: true });
  });

  it('has none by default', async () => {
    userConfig('[mcp_servers.tools]\ncommand = "tools-mcp"\n');
    expect((await load()).config.mcpSkillSources).toEqual([]);
  });

  it('rejects a skein_skill_source that is not a boolean, naming the server', async () => {
    userConfig('[mcp_servers.docs]\ncommand = "docs-mcp"\nskein_skill_source = "yes"\n');
    expect(await loadError()).toMatchObject({ code: 'InvalidValue', origin: path.join(home, 'config.toml'), key: 'mcp_servers.docs' });
  });
});

describe('the recorded Codex provider config', () => {
  it('loads the config Codex 0.171.0 was recorded with, without a warning for its client-side keys', async () => {
    userConfig(`
model_provider = "mock"
check_for_update_on_startup = false
[analytics]
enabled = false
[feedback]
enabled = false
[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:4010/v1"
wire_api = "responses"
env_key = "ORACLE_MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 30000
supports_websockets = false
`);
    const { config, warnings } = await load();
    expect(config.modelProvider).toMatchObject({ id: 'mock', envKey: 'ORACLE_MOCK_API_KEY', requestMaxRetries: 0, streamIdleTimeoutMs: 30000 });
    expect(warnings).toEqual([]);
  });
});

describe('web search', () => {
  it('is cached by default; web_search, the deprecated web_search_request switch and [tools.web_search] set it as Codex reads them', async () => {
    expect((await load()).config.webSearch).toEqual({ mode: 'cached', allowedDomains: undefined, contextSize: undefined, location: undefined });
    expect((await load({ overrides: ['features.web_search_request=true'] })).config.webSearch.mode).toBe('live');
    // The mode wins over the old switch.
    expect((await load({ overrides: ['web_search="disabled"', 'features.web_search_request=true'] })).config.webSearch.mode).toBe('disabled');
    userConfig('web_search = "indexed"\n[tools.web_search]\nallowed_domains = ["a.com"]\ncontext_size = "high"\nlocation = { country = "US", city = "SF", street = "dropped" }\n');
    expect((await load()).config.webSearch).toEqual({ mode: 'indexed', allowedDomains: ['a.com'], contextSize: 'high', location: { country: 'US', city: 'SF' } });
    // The older boolean spelling is accepted and, as in Codex, changes nothing.
    userConfig('[tools]\nweb_search = false\n');
    expect((await load()).config.webSearch.mode).toBe('cached');
  });

  it('refuses an unknown mode or context size, naming the key', async () => {
    expect((await loadError({ overrides: ['web_search="bogus"'] })).message).toMatch(/web_search/);
    expect((await loadError({ overrides: ['tools.web_search.context_size="huge"'] })).message).toMatch(/tools\.web_search/);
  });
});

describe('sub-agents', () => {
  it('reads [agents] max_depth and default_subagent_model, and the concurrency from [features.multi_agent_v2]', async () => {
    expect((await load()).config.agents).toEqual({ maxDepth: 1, defaultSubagentModel: undefined, maxConcurrentThreads: 4, jobMaxRuntimeSeconds: undefined });
    userConfig('[agents]\nmax_depth = 2\ndefault_subagent_model = "gpt-5.5"\njob_max_runtime_seconds = 600\n[features.multi_agent_v2]\nenabled = true\nmax_concurrent_threads_per_session = 8\n');
    const { config } = await load();
    expect(config.agents).toEqual({ maxDepth: 2, defaultSubagentModel: 'gpt-5.5', maxConcurrentThreads: 8, jobMaxRuntimeSeconds: 600 });
    expect(config.features.isEnabled('multi_agent_v2')).toBe(true);
    expect((await loadError({ overrides: ['features.multi_agent_v2.max_concurrent_threads_per_session=0'] })).message).toMatch(/max_concurrent_threads_per_session: at least 1/);
    expect((await loadError({ overrides: ['agents.max_depth=0'] })).message).toMatch(/agents\.max_depth/);
  });
});

describe('[mcp_servers.*] keys', () => {
  it('warns about a key no MCP server reads, and refuses it under --strict-config', async () => {
    userConfig('[mcp_servers.docs]\ncommand = "docs-mcp"\ndefault_tools_approval_mode = "prompt"\ntool_timeout = 5\n');
    const { config, warnings } = await load();
    expect(config.mcpServers['docs']).toMatchObject({ command: 'docs-mcp', default_tools_approval_mode: 'prompt' });
    expect(warnings).toEqual([{ code: 'UnknownKey', origin: path.join(home, 'config.toml'), key: 'mcp_servers.docs.tool_timeout', message: `${path.join(home, 'config.toml')}: mcp_servers.docs.tool_timeout: not a setting of an MCP server; it is ignored` }]);
    expect(await loadError({ strict: true })).toMatchObject({ code: 'UnknownKey', key: 'mcp_servers.docs.tool_timeout' });
  });
});
