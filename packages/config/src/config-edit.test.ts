import { describe, expect, it } from 'vitest';
import { applyConfigEdits, type ConfigEdit } from './config-edit.js';
import { ConfigWriteError } from './config-write-error.js';

const CONFIG = `# My Codex settings
model = "gpt-5.5" # the default
approval_policy = "on-request"

[model_providers.mock]
# a local mock
name = "Mock" # shown in lists
base_url = "http://127.0.0.1:9/v1"

# sandbox
[sandbox_workspace_write]
writable_roots = ["/tmp/a"] # extra roots
exclude_slash_tmp = true
`;

const set = (keyPath: string, value: unknown, mergeStrategy: ConfigEdit['mergeStrategy'] = 'replace'): ConfigEdit => ({ keyPath, value, mergeStrategy });

describe('applyConfigEdits', () => {
  it('replaces a value where it stands, keeping its comment and every other line', () => {
    expect(applyConfigEdits(CONFIG, [set('model', 'o3'), set('model_providers.mock.name', 'Mocky')])).toBe(
      CONFIG.replace('model = "gpt-5.5"', 'model = "o3"').replace('name = "Mock"', 'name = "Mocky"'),
    );
  });

  it('adds a new top-level key after the last top-level key and a new key at the end of its table', () => {
    expect(applyConfigEdits(CONFIG, [set('model_reasoning_effort', 'high'), set('sandbox_workspace_write.network_access', true)])).toBe(
      CONFIG.replace('approval_policy = "on-request"\n', 'approval_policy = "on-request"\nmodel_reasoning_effort = "high"\n') + 'network_access = true\n',
    );
  });

  it('appends a missing table as a [section], quoting keys that need it', () => {
    const edited = applyConfigEdits(CONFIG, [
      set('projects./home/me/proj.trust_level', 'trusted'),
      set('model_providers.other', { name: 'Other', base_url: 'http://x/v1', http_headers: { 'X-Team': 'a' } }),
      set('features.memories', true),
    ]);
    expect(edited).toBe(
      `${CONFIG}
[projects."/home/me/proj"]
trust_level = "trusted"

[model_providers.other]
name = "Other"
base_url = "http://x/v1"

[model_providers.other.http_headers]
X-Team = "a"

[features]
memories = true
`,
    );
  });

  it('replace puts a table value in place of the old table; upsert merges into it', () => {
    const replaced = applyConfigEdits(CONFIG, [set('sandbox_workspace_write', { network_access: false })]);
    expect(replaced).toBe(CONFIG.replace('writable_roots = ["/tmp/a"] # extra roots\nexclude_slash_tmp = true\n', 'network_access = false\n'));
    const upserted = applyConfigEdits(CONFIG, [set('sandbox_workspace_write', { network_access: false, exclude_slash_tmp: false }, 'upsert')]);
    expect(upserted).toBe(CONFIG.replace('exclude_slash_tmp = true\n', 'exclude_slash_tmp = false\nnetwork_access = false\n'));
  });

  it('replaces an array, keeping the comment after it', () => {
    expect(applyConfigEdits(CONFIG, [set('sandbox_workspace_write.writable_roots', ['/tmp/b', '/tmp/c'])])).toBe(
      CONFIG.replace('["/tmp/a"]', '["/tmp/b", "/tmp/c"]'),
    );
  });

  it('removes a key for a null value, and a missing key removes nothing', () => {
    const removed = applyConfigEdits(CONFIG, [set('model_providers.mock.base_url', null)]);
    expect(removed).toBe(CONFIG.replace('base_url = "http://127.0.0.1:9/v1"\n', ''));
    expect(applyConfigEdits(CONFIG, [set('model_verbosity', null), set('tui.theme', null)])).toBe(CONFIG);
  });

  it('writes a file from nothing, ending in a newline', () => {
    expect(applyConfigEdits('', [set('model', 'o3'), set('shell_environment_policy.inherit', 'core')])).toBe('model = "o3"\n\n[shell_environment_policy]\ninherit = "core"\n');
  });

  it('refuses an empty key path and a key below a value that is not a table', () => {
    expect(() => applyConfigEdits(CONFIG, [set('', 1)])).toThrow(new ConfigWriteError('configValidationError', 'keyPath must not be empty'));
    expect(() => applyConfigEdits(CONFIG, [set('model.name', 'x')])).toThrow(new ConfigWriteError('configValidationError', 'cannot set value on non-table parent'));
    expect(() => applyConfigEdits(CONFIG, [set('a..b', 1)])).toThrow(ConfigWriteError);
  });

  it('refuses text that is not TOML', () => {
    expect(() => applyConfigEdits('model = = 1\n', [set('model', 'o3')])).toThrow(/^Invalid configuration: /);
  });
});

describe('applyConfigEdits array style', () => {
  it('writes arrays as Codex does, unless the file spaces its brackets', () => {
    expect(applyConfigEdits('', [set('project_root_markers', ['.git', '.hg'])])).toBe('project_root_markers = [".git", ".hg"]\n');
    expect(applyConfigEdits('a = [ 1 ]\n', [set('project_root_markers', ['.git'])])).toBe('a = [ 1 ]\nproject_root_markers = [ ".git" ]\n');
  });
});
