// config/value/write and config/batchWrite against the built binary: the user's config.toml edited
// in place (exact text asserted), every refusal as Codex 0.171.0 words it, and later reads and threads
// seeing the new values. The test client checks every message against Codex's schema.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const CONFIG = `# Skein test settings
model_provider = "mock" # the mock below
model = "gpt-5.5"

# ask before anything risky
approval_policy = "on-request"

[model_providers.mock]
name = "Mock" # shown in lists
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "SKEIN_TEST_API_KEY"
request_max_retries = 0

[features]
# keep the shell
shell_tool = true
`;

const versionOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

let home: TestHome;
let client: AppServerTestClient;
let file: string;

beforeEach(async () => {
  home = makeHome(CONFIG);
  file = path.join(home.home, 'config.toml');
  // A session flag above the user's file, to see a write it overrides.
  client = spawnStdioClient(home, ['-c', 'model_verbosity="medium"']);
  await client.initialize();
});
afterEach(async () => {
  await client.close();
  home.cleanup();
});

const write = (keyPath: string, value: unknown, extra: Record<string, unknown> = {}) => client.requestReply('config/value/write', { keyPath, value, mergeStrategy: 'replace', ...extra });
const configError = (code: string, message: string) => ({ error: { code: -32600, message, data: { config_write_error_code: code } } });

describe('config/value/write and config/batchWrite', () => {
  it('edits config.toml in place, keeping comments and layout, and later reads and threads see it', async () => {
    expect(await write('model', 'o3')).toEqual({ result: { status: 'ok', version: versionOf(CONFIG.replace('"gpt-5.5"', '"o3"')), filePath: file, overriddenMetadata: null } });
    const reply = await client.requestReply('config/batchWrite', {
      edits: [
        { keyPath: 'model_reasoning_effort', value: 'low', mergeStrategy: 'replace' },
        { keyPath: 'model_providers.mock.name', value: 'Mocky', mergeStrategy: 'replace' },
        { keyPath: 'features.shell_tool', value: false, mergeStrategy: 'replace' },
        { keyPath: 'sandbox_workspace_write', value: { network_access: true, writable_roots: ['/tmp/a'] }, mergeStrategy: 'upsert' },
        { keyPath: 'approval_policy', value: null, mergeStrategy: 'replace' },
      ],
      reloadUserConfig: true,
    });
    const expected = `# Skein test settings
model_provider = "mock" # the mock below
model = "o3"

model_reasoning_effort = "low"

[model_providers.mock]
name = "Mocky" # shown in lists
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "SKEIN_TEST_API_KEY"
request_max_retries = 0

[features]
# keep the shell
shell_tool = false

[sandbox_workspace_write]
network_access = true
writable_roots = ["/tmp/a"]
`;
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(reply).toEqual({ result: { status: 'ok', version: versionOf(expected), filePath: file, overriddenMetadata: null } });

    const read = (await client.request('config/read', {})) as { config: Record<string, unknown>; origins: Record<string, { version: string }> };
    expect(read.config).toMatchObject({ model: 'o3', model_reasoning_effort: 'low', approval_policy: null, sandbox_workspace_write: { network_access: true } });
    expect(read.origins.model?.version).toBe(versionOf(expected));
    const started = (await client.request('thread/start', {})) as { model: string; reasoningEffort: string | null };
    expect(started).toMatchObject({ model: 'o3', reasoningEffort: 'low' });
  });

  it('answers okOverridden when a layer above the file decides the key', async () => {
    const reply = await client.request('config/value/write', { keyPath: 'model_verbosity', value: 'low', mergeStrategy: 'replace' });
    expect(reply).toMatchObject({
      status: 'okOverridden',
      overriddenMetadata: { message: 'Overridden by session flags', overridingLayer: { name: { type: 'sessionFlags' } }, effectiveValue: 'medium' },
    });
    expect(readFileSync(file, 'utf8')).toContain('model_verbosity = "low"\n');
  });

  it('checks expectedVersion against the file as config/read reported it', async () => {
    const read = (await client.request('config/read', {})) as { origins: Record<string, { version: string }> };
    const version = read.origins.model!.version;
    expect(version).toBe(versionOf(CONFIG));
    expect(await write('model', 'o3', { expectedVersion: version })).toMatchObject({ result: { status: 'ok' } });
    expect(await write('model', 'o4', { expectedVersion: version })).toEqual(configError('configVersionConflict', 'Configuration was modified since last read. Fetch latest version and retry.'));
  });

  it('refuses wrong edits with Codex codes and leaves the file as it was', async () => {
    expect(await write('modle', 'o3')).toEqual(configError('configSchemaUnknownKey', 'Unknown configuration key `modle`'));
    expect(await write('model', 5)).toEqual(configError('configValidationError', 'Invalid configuration: Invalid input: expected string, received number (got 5)\nin `model`\n'));
    expect(await write('sandbox_mode', 'bogus')).toEqual(
      configError('configValidationError', 'Invalid configuration: Invalid option: expected one of "read-only"|"workspace-write"|"danger-full-access" (got "bogus")\nin `sandbox_mode`\n'),
    );
    expect(await write('model.name', 'x')).toEqual(configError('configValidationError', 'cannot set value on non-table parent'));
    expect(await write('', 'x')).toEqual(configError('configValidationError', 'keyPath must not be empty'));
    expect(await write('profiles.fast.model', 'o3')).toEqual(
      configError('configValidationError', '`profiles` tables cannot be written through the app-server; edit config.toml to change a profile'),
    );
    for (const filePath of ['/tmp/other.toml', 'config.toml']) {
      expect(await write('model', 'o3', { filePath })).toEqual(configError('configLayerReadonly', 'Only writes to the user config are allowed'));
    }
    // A batch is written whole or not at all.
    const batch = await client.requestReply('config/batchWrite', {
      edits: [
        { keyPath: 'model', value: 'o3', mergeStrategy: 'replace' },
        { keyPath: 'model_context_window', value: -1, mergeStrategy: 'replace' },
      ],
    });
    expect(batch).toEqual(configError('configValidationError', 'Invalid configuration: Too small: expected number to be >0 (got -1)\nin `model_context_window`\n'));
    expect(await client.requestReply('config/value/write', { keyPath: 'model', value: 'o3', mergeStrategy: 'merge' })).toEqual({
      error: { code: -32600, message: 'Invalid request: mergeStrategy: unknown variant `merge`, expected `replace` or `upsert`' },
    });
    expect(await client.requestReply('config/value/write', { keyPath: 'model', value: 'o3' })).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `mergeStrategy`' } });
    expect(readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('accepts the user file by any absolute spelling and writes a missing one', async () => {
    writeFileSync(file, '');
    const reply = await write('model', 'o3', { filePath: path.join(home.home, '..', path.basename(home.home), 'config.toml') });
    expect(reply).toEqual({ result: { status: 'ok', version: versionOf('model = "o3"\n'), filePath: file, overriddenMetadata: null } });
    expect(readFileSync(file, 'utf8')).toBe('model = "o3"\n');
  });
});
