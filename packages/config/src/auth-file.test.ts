import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyOf, maskApiKey, readAuthFile, readSavedApiKey, removeSavedAuth, saveApiKey } from './auth-file.js';

let home: string;
beforeEach(() => (home = mkdtempSync(path.join(tmpdir(), 'skein-auth-'))));
afterEach(() => rmSync(home, { recursive: true, force: true }));

// Byte for byte what `printf sk-test | codex login --with-api-key` writes (Codex 0.171.0, probed): two-space JSON, no final newline.
const CODEX_WRITTEN = '{\n  "auth_mode": "apikey",\n  "OPENAI_API_KEY": "sk-test"\n}';

describe('auth.json', () => {
  it('saves a key byte for byte as Codex writes it, owner-only, reads it back, and removes it', async () => {
    expect(await readSavedApiKey(home)).toBeUndefined();
    await saveApiKey(home, '  sk-test\n');
    const file = path.join(home, 'auth.json');
    expect(readFileSync(file, 'utf8')).toBe(CODEX_WRITTEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await readAuthFile(home)).toEqual({ auth_mode: 'apikey', OPENAI_API_KEY: 'sk-test' });
    expect(await readSavedApiKey(home)).toBe('sk-test');
    expect(await removeSavedAuth(home)).toBe(true);
    expect(await removeSavedAuth(home)).toBe(false);
    expect(await readSavedApiKey(home)).toBeUndefined();
  });

  it('reads the key Codex saved', async () => {
    writeFileSync(path.join(home, 'auth.json'), CODEX_WRITTEN, { mode: 0o600 });
    expect(await readSavedApiKey(home)).toBe('sk-test');
  });

  it('replaces an earlier sign-in whole, owner-only even over a wider file, leaving no temporary file', async () => {
    writeFileSync(path.join(home, 'auth.json'), JSON.stringify({ auth_mode: 'chatgpt', OPENAI_API_KEY: null, tokens: { id_token: 'x' }, last_refresh: '2026-01-01T00:00:00Z' }), { mode: 0o644 });
    await saveApiKey(home, 'sk-new');
    expect(JSON.parse(readFileSync(path.join(home, 'auth.json'), 'utf8'))).toEqual({ auth_mode: 'apikey', OPENAI_API_KEY: 'sk-new' });
    expect(statSync(path.join(home, 'auth.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(home)).toEqual(['auth.json']);
  });

  it('creates a home that does not exist yet', async () => {
    const fresh = path.join(home, 'not-yet', 'codex');
    await saveApiKey(fresh, 'sk-test');
    expect(readFileSync(path.join(fresh, 'auth.json'), 'utf8')).toBe(CODEX_WRITTEN);
  });

  it('keeps the previous file and no temporary one when the new one cannot take its place', async () => {
    // A directory where the file goes: the rename fails after the temporary file was written.
    mkdirSync(path.join(home, 'auth.json', 'occupied'), { recursive: true });
    await expect(saveApiKey(home, 'sk-test')).rejects.toThrow();
    expect(readdirSync(home)).toEqual(['auth.json']);
    expect(readdirSync(path.join(home, 'auth.json'))).toEqual(['occupied']);
  });

  it('refuses an empty key and writes nothing', async () => {
    await expect(saveApiKey(home, ' \n')).rejects.toMatchObject({ code: 'InvalidAuthFile' });
    expect(readdirSync(home)).toEqual([]);
  });

  it('reads a ChatGPT sign-in as no key, and a file without auth_mode (older Codex) as a key sign-in', async () => {
    const chatgpt = { auth_mode: 'chatgpt', OPENAI_API_KEY: 'sk-exchanged', tokens: { id_token: 'x' }, last_refresh: '2026-01-01T00:00:00Z' };
    writeFileSync(path.join(home, 'auth.json'), JSON.stringify(chatgpt));
    expect(await readAuthFile(home)).toEqual(chatgpt);
    expect(await readSavedApiKey(home)).toBeUndefined();
    expect(apiKeyOf({ OPENAI_API_KEY: 'sk-old' })).toBe('sk-old');
    expect(apiKeyOf({ auth_mode: 'apikey', OPENAI_API_KEY: '' })).toBeUndefined();
    expect(apiKeyOf(undefined)).toBeUndefined();
  });

  it('refuses a damaged file, naming it', async () => {
    const file = path.join(home, 'auth.json');
    writeFileSync(file, '{"OPENAI_API_KEY": 12');
    await expect(readSavedApiKey(home)).rejects.toMatchObject({ code: 'InvalidAuthFile', origin: file });
    writeFileSync(file, '{"OPENAI_API_KEY": 12}');
    await expect(readSavedApiKey(home)).rejects.toMatchObject({ code: 'InvalidAuthFile', key: 'OPENAI_API_KEY' });
    writeFileSync(file, '[]');
    await expect(readAuthFile(home)).rejects.toMatchObject({ code: 'InvalidAuthFile' });
  });

  it('masks keys as Codex shows them', () => {
    expect(maskApiKey('sk-proj-abcdefghijklmnopqrstuvwxyz123456')).toBe('sk-proj-***23456');
    expect(maskApiKey('sk-test')).toBe('***');
  });
});
