// `$CODEX_HOME/auth.json`: the API key a user signed in with (`codex login --with-api-key`, `skein
// login --with-api-key`), in Codex 0.171.0's format (`{"auth_mode": "apikey", "OPENAI_API_KEY": …}`,
// owner-only), so a key saved by either is used by both. Written through an exclusive temporary file
// and a rename: a failed write leaves the previous file, never half of a new one.
import { randomUUID } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { ConfigError } from './config-error.js';

/** The file's name in the home directory. */
export const AUTH_FILE = 'auth.json';

// Codex writes more for a ChatGPT sign-in (tokens, last_refresh); Skein reads the API key only.
const AuthFile = z.looseObject({
  auth_mode: z.string().nullish(),
  OPENAI_API_KEY: z.string().nullish(),
});

/** The API key saved in `home`'s auth.json; undefined when there is none (no file, or a ChatGPT sign-in). */
export async function readSavedApiKey(home: string): Promise<string | undefined> {
  const file = path.join(home, AUTH_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('InvalidAuthFile', file, undefined, `not JSON: ${(error as Error).message}`);
  }
  const parsed = AuthFile.safeParse(json);
  if (!parsed.success) throw new ConfigError('InvalidAuthFile', file, undefined, parsed.error.issues[0]?.message ?? 'not an auth file');
  const key = parsed.data.OPENAI_API_KEY?.trim();
  return key === undefined || key === '' ? undefined : key;
}

/** Saves `apiKey` as `home`'s sign-in, replacing any other, owner-only. */
export async function saveApiKey(home: string, apiKey: string): Promise<void> {
  const key = apiKey.trim();
  if (key === '') throw new ConfigError('InvalidAuthFile', path.join(home, AUTH_FILE), undefined, 'the API key is empty');
  const target = path.join(home, AUTH_FILE);
  const temporary = `${target}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: key }, null, 2)}\n`);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Removes `home`'s sign-in; false when there was none. */
export async function removeSavedAuth(home: string): Promise<boolean> {
  try {
    await rm(path.join(home, AUTH_FILE));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** A key as Codex shows it: its first 8 and last 5 characters (`sk-proj-***23456`), `***` when shorter than 14. */
export function maskApiKey(key: string): string {
  return key.length < 14 ? '***' : `${key.slice(0, 8)}***${key.slice(-5)}`;
}
