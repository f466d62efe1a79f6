import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maskApiKey, readSavedApiKey, removeSavedAuth, saveApiKey } from './auth-file.js';

let home: string;
beforeEach(() => (home = mkdtempSync(path.join(tmpdir(), 'skein-auth-'))));
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('auth.json', () => {
  it('saves a key as Codex writes it, owner-only, reads it back, and removes it', async () => {
    expect(await readSavedApiKey(home)).toBeUndefined();
    await saveApiKey(home, '  sk-proj-abcdefghijklmnopqrstuvwxyz123456\n');
    const file = path.join(home, 'auth.json');
    expect(readFileSync(file, 'utf8')).toBe('{\n  "auth_mode": "apikey",\n  "OPENAI_API_KEY": "sk-proj-abcdefghijklmnopqrstuvwxyz123456"\n}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await readSavedApiKey(home)).toBe('sk-proj-abcdefghijklmnopqrstuvwxyz123456');
    expect(await removeSavedAuth(home)).toBe(true);
    expect(await removeSavedAuth(home)).toBe(false);
    expect(await readSavedApiKey(home)).toBeUndefined();
  });

  it('reads a ChatGPT sign-in as no key, refuses an empty key and a damaged file, and masks keys as Codex shows them', async () => {
    writeFileSync(path.join(home, 'auth.json'), JSON.stringify({ auth_mode: 'chatgpt', OPENAI_API_KEY: null, tokens: { id_token: 'x' } }));
    expect(await readSavedApiKey(home)).toBeUndefined();
    await expect(saveApiKey(home, '  ')).rejects.toMatchObject({ code: 'InvalidAuthFile' });
    writeFileSync(path.join(home, 'auth.json'), '{"OPENAI_API_KEY": 12');
    await expect(readSavedApiKey(home)).rejects.toMatchObject({ code: 'InvalidAuthFile' });
    writeFileSync(path.join(home, 'auth.json'), '{"OPENAI_API_KEY": 12}');
    await expect(readSavedApiKey(home)).rejects.toMatchObject({ code: 'InvalidAuthFile' });
    expect(maskApiKey('sk-proj-abcdefghijklmnopqrstuvwxyz123456')).toBe('sk-proj-***23456');
    expect(maskApiKey('sk-1')).toBe('***');
  });
});
