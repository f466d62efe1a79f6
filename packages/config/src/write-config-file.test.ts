import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigEdit } from './config-edit.js';
import { isConfigKeyPath } from './config-key-path.js';
import { ConfigWriteError } from './config-write-error.js';
import { configFileVersion, writeConfigFile } from './write-config-file.js';

const CONFIG = '# mine\nmodel = "gpt-5.5" # default\n\n[features]\nshell_tool = true\n';
const set = (keyPath: string, value: unknown): ConfigEdit => ({ keyPath, value, mergeStrategy: 'replace' });

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skein-config-write-'));
  file = path.join(dir, 'config.toml');
  writeFileSync(file, CONFIG);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The refusal `writeConfigFile` rejects with (fails when it resolves). */
async function refusal(edits: readonly ConfigEdit[], options?: { expectedVersion?: string }): Promise<ConfigWriteError> {
  const error: unknown = await writeConfigFile(file, edits, options).then(
    () => new Error('the write was not refused'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof ConfigWriteError)) throw error;
  return error;
}

describe('writeConfigFile', () => {
  it('writes the edits in place and answers the new version; no temp file is left', async () => {
    const written = await writeConfigFile(file, [set('model', 'o3'), set('features.memories', true)]);
    const text = '# mine\nmodel = "o3" # default\n\n[features]\nshell_tool = true\nmemories = true\n';
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(written).toEqual({ file, version: configFileVersion(Buffer.from(text)), changed: true });
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('checks expectedVersion against the file on disk', async () => {
    const current = configFileVersion(readFileSync(file));
    expect((await writeConfigFile(file, [set('model', 'o3')], { expectedVersion: current })).changed).toBe(true);
    const stale = await refusal([set('model', 'o4')], { expectedVersion: current });
    expect(stale).toMatchObject({ code: 'configVersionConflict', message: 'Configuration was modified since last read. Fetch latest version and retry.' });
    expect(readFileSync(file, 'utf8')).toContain('model = "o3"');
  });

  it('refuses unknown keys, [profiles] and wrong values, writing nothing', async () => {
    expect(await refusal([set('model', 'o3'), set('modle', 'o3')])).toMatchObject({ code: 'configSchemaUnknownKey', message: 'Unknown configuration key `modle`' });
    expect(await refusal([set('sandbox_workspace_write', { network_acces: true })])).toMatchObject({
      code: 'configSchemaUnknownKey',
      message: 'Unknown configuration key `sandbox_workspace_write.network_acces`',
    });
    expect(await refusal([set('features.no_such_feature', true)])).toMatchObject({ code: 'configSchemaUnknownKey' });
    expect(await refusal([set('profiles.fast.model', 'o3')])).toMatchObject({ code: 'configValidationError' });
    expect(await refusal([set('model', 5)])).toMatchObject({
      code: 'configValidationError',
      message: 'Invalid configuration: Invalid input: expected string, received number (got 5)\nin `model`\n',
    });
    expect(await refusal([set('features.shell_tool', 'yes')])).toMatchObject({
      code: 'configValidationError',
      message: 'Invalid configuration: expected true or false (got "yes")\nin `features.shell_tool`\n',
    });
    expect(readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('removes a key nobody reads, and leaves the file alone when nothing changes', async () => {
    writeFileSync(file, `modle = "typo"\n${CONFIG}`);
    expect((await writeConfigFile(file, [set('features.modle', null)])).changed).toBe(false);
    expect((await writeConfigFile(file, [set('features.modle', null), set('modle', null)])).changed).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('runs concurrent writes one after the other, so none is lost', async () => {
    const efforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];
    const keys = ['model', 'model_reasoning_effort', 'model_verbosity', 'developer_instructions', 'model_context_window'];
    await Promise.all([
      writeConfigFile(file, [set('model', 'o3')]),
      ...efforts.map((effort) => writeConfigFile(file, [set('model_reasoning_effort', effort)])),
      writeConfigFile(file, [set('model_verbosity', 'low')]),
      writeConfigFile(file, [set('developer_instructions', 'be brief')]),
      writeConfigFile(file, [set('model_context_window', 1000)]),
    ]);
    const text = readFileSync(file, 'utf8');
    for (const key of keys) expect(text).toContain(`${key} = `);
    expect(text).toContain('model_reasoning_effort = "xhigh"');
  });

  it('creates a missing file, and writes through a symlink keeping the mode', async () => {
    rmSync(file);
    expect(await writeConfigFile(file, [set('model', 'o3')])).toMatchObject({ changed: true });
    expect(readFileSync(file, 'utf8')).toBe('model = "o3"\n');
    const real = path.join(dir, 'real.toml');
    writeFileSync(real, CONFIG);
    chmodSync(real, 0o600);
    rmSync(file);
    symlinkSync(real, file);
    expect((await writeConfigFile(file, [set('model', 'o4')])).file).toBe(real);
    expect(readFileSync(real, 'utf8')).toContain('model = "o4"');
    expect(statSync(real).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['config.toml', 'real.toml']);
  });
});

describe('isConfigKeyPath', () => {
  it('knows the keys Skein models, the tables Codex owns, and the registered features', () => {
    for (const known of ['model', 'model_providers.x.base_url', 'mcp_servers.srv.env.TOKEN', 'projects./p.trust_level', 'tui.theme', 'features.memories', 'features.token_budget.reminder_threshold_tokens', 'skills.config']) {
      expect(isConfigKeyPath(known.split('.')), known).toBe(true);
    }
    for (const unknown of ['modle', 'model.x', 'model_providers.x.bogus', 'features.bogus', 'features.token_budget.bogus', 'sandbox_workspace_write.x', 'projects./p.trusted']) {
      expect(isConfigKeyPath(unknown.split('.')), unknown).toBe(false);
    }
  });
});
