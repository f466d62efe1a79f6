// `$CODEX_HOME/auth.json`: the API key a user signed in with (`codex login --with-api-key`, `skein
// login --with-api-key`, `account/login/start {type: "apiKey"}`), in Codex 0.171.0's format (probed:
// `{"auth_mode": "apikey", "OPENAI_API_KEY": …}` pretty-printed with two spaces and no final newline,
// mode 0600), so a key saved by either is used by both. Written through an exclusive temporary file
// and a rename: a failed write leaves the previous file, never half of a new one.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { ConfigError } from './config-error.js';

/** The file's name in the home directory. */
export const AUTH_FILE = 'auth.json';

/**
 * auth.json as Codex writes it. An API-key sign-in has `auth_mode: "apikey"` and the key; a ChatGPT
 * sign-in has `auth_mode: "chatgpt"`, `OPENAI_API_KEY: null`, `tokens` and `last_refresh`; files from
 * older Codex releases may lack `auth_mode`. Other fields are kept as written.
 */
export const AuthFile = z.looseObject({
  auth_mode: z.string().nullish(),
  OPENAI_API_KEY: z.string().nullish(),
  tokens: z.unknown().optional(),
  last_refresh: z.string().nullish(),
});
export type AuthFile = z.infer<typeof AuthFile>;

/** The path of `home`'s auth.json. */
export function authFilePath(home: string): string {
  return path.join(home, AUTH_FILE);
}

/**
 * `home`'s auth.json, parsed; undefined when there is none. A file that is not JSON or not an auth
 * file is a `ConfigError` `InvalidAuthFile` naming it.
 */
export async function readAuthFile(home: string): Promise<AuthFile | undefined> {
  const file = authFilePath(home);
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
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError('InvalidAuthFile', file, issue?.path.map(String).join('.') || undefined, issue?.message ?? 'not an auth file');
  }
  return parsed.data;
}

/**
 * The API key of an auth.json: its `OPENAI_API_KEY` when the sign-in is by key (`auth_mode`
 * `apikey`, or none as older Codex releases wrote it); undefined for a ChatGPT sign-in, which Skein
 * cannot use, and for an empty key.
 */
export function apiKeyOf(auth: AuthFile | undefined): string | undefined {
  if (auth === undefined) return undefined;
  if (auth.auth_mode !== undefined && auth.auth_mode !== null && auth.auth_mode !== 'apikey') return undefined;
  const key = auth.OPENAI_API_KEY?.trim();
  return key === undefined || key === '' ? undefined : key;
}

/** The API key saved in `home`'s auth.json; undefined when there is none (no file, or a ChatGPT sign-in). */
export async function readSavedApiKey(home: string): Promise<string | undefined> {
  return apiKeyOf(await readAuthFile(home));
}

/**
 * Saves `apiKey` (trimmed) as `home`'s sign-in, replacing any other, owner-only. Creates `home` when
 * it does not exist yet. An empty key is a `ConfigError` `InvalidAuthFile` and writes nothing.
 */
export async function saveApiKey(home: string, apiKey: string): Promise<void> {
  const key = apiKey.trim();
  const target = authFilePath(home);
  if (key === '') throw new ConfigError('InvalidAuthFile', target, undefined, 'the API key is empty');
  await mkdir(home, { recursive: true, mode: 0o700 });
  const temporary = `${target}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: key }, null, 2));
    await handle.sync();
    await handle.close();
    await rename(temporary, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Removes `home`'s sign-in (whatever its kind); false when there was none. */
export async function removeSavedAuth(home: string): Promise<boolean> {
  try {
    await rm(authFilePath(home));
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
