// `$CODEX_HOME/environments.toml`: the executors (remote exec-servers) an app-server or `skein exec`
// may run threads on, as Codex 0.171.0 reads the file — the same keys, every unknown key refused,
// and its error texts word for word.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { ConfigError } from './config-error.js';
import { parseToml } from './toml-table.js';

/** The file's name under the home directory. */
export const ENVIRONMENTS_TOML = 'environments.toml';
/** The id of the machine the app-server runs on; no configured environment may take it. */
export const LOCAL_ENVIRONMENT_ID = 'local';
/** `default = "none"`: threads get no default environment. */
export const NO_DEFAULT_ENVIRONMENT = 'none';

/** One `[[environments]]` entry as written. */
export const EnvironmentEntryToml = z.strictObject({
  id: z.string(),
  /** Skills the environment offers; Codex's shape, accepted and not used by Skein yet. */
  skills: z.record(z.string(), z.unknown()).optional(),
  /** A `ws://` or `wss://` exec-server to connect to. */
  url: z.string().optional(),
  /** Sent as `Authorization: Bearer <token>` to `url`. */
  auth_bearer_token: z.string().optional(),
  /** An exec-server to start and speak to over its stdin/stdout. */
  program: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  connect_timeout_sec: z.number().nonnegative().optional(),
  initialize_timeout_sec: z.number().nonnegative().optional(),
});
export type EnvironmentEntryToml = z.infer<typeof EnvironmentEntryToml>;

/** The whole file as written. */
export const EnvironmentsToml = z.strictObject({
  default: z.string().optional(),
  include_local: z.boolean().optional(),
  environments: z.array(EnvironmentEntryToml).optional(),
});
export type EnvironmentsToml = z.infer<typeof EnvironmentsToml>;

/** How to reach a configured executor. */
export type EnvironmentTransport =
  | { readonly type: 'websocket'; readonly url: string; readonly authBearerToken: string | undefined }
  | {
      readonly type: 'stdio';
      readonly program: string;
      readonly args: readonly string[];
      /** Variables added to (or replacing) the parent's for the child. */
      readonly env: Readonly<Record<string, string>>;
      /** Where the child starts, resolved against the file's directory. */
      readonly cwd: string | undefined;
    };

/** One configured executor. */
export interface ConfiguredEnvironment {
  readonly id: string;
  readonly transport: EnvironmentTransport;
  /** How long to wait for the connection, in milliseconds, when the file says. */
  readonly connectTimeoutMs: number | undefined;
  /** How long to wait for the `initialize` answer, in milliseconds, when the file says. */
  readonly initializeTimeoutMs: number | undefined;
  readonly skills: Readonly<Record<string, unknown>> | undefined;
}

/** environments.toml, checked. */
export interface EnvironmentsConfig {
  /** The file it was read from. */
  readonly path: string;
  /** Whether threads also get this machine (`local`). */
  readonly includeLocal: boolean;
  /** The primary environment of a thread started without `environments`; undefined for `default = "none"` or none configured. */
  readonly defaultId: string | undefined;
  /** True when the file said `default = "none"`. */
  readonly noDefault: boolean;
  /** The configured executors, in file order. */
  readonly environments: readonly ConfiguredEnvironment[];
}

/**
 * A bad environments.toml. The message is Codex's: `exec-server protocol error: failed to parse
 * environment config `<path>`: <reason>`; `reason` alone is kept for callers that rephrase it.
 */
export class EnvironmentsConfigError extends ConfigError {
  constructor(
    file: string,
    key: string | undefined,
    readonly reason: string,
  ) {
    super('InvalidEnvironments', file, key, reason);
    this.message = `exec-server protocol error: failed to parse environment config \`${file}\`: ${reason}`;
  }
}

/** The keys each level accepts, for the "expected one of" list. */
const TOP_LEVEL_KEYS = Object.keys(EnvironmentsToml.shape);
const ENTRY_KEYS = Object.keys(EnvironmentEntryToml.shape);

/**
 * Parses environments.toml's text (read from `file`) and checks it as Codex does.
 *
 * @throws EnvironmentsConfigError naming the file and the first problem.
 */
export function parseEnvironmentsToml(text: string, file: string): EnvironmentsConfig {
  let table: Record<string, unknown>;
  try {
    table = parseToml(text, file);
  } catch (error) {
    if (error instanceof ConfigError) {
      // parseToml names `<file>:<line>:<column>`; the file is in the message already.
      const where = /:(\d+):(\d+)$/.exec(error.origin);
      const reason = error.message.slice(error.origin.length + 2);
      throw new EnvironmentsConfigError(file, undefined, where === null ? reason : `TOML parse error at line ${where[1]}, column ${where[2]}: ${reason}`);
    }
    throw error;
  }
  const result = EnvironmentsToml.safeParse(table);
  if (!result.success) throw schemaError(result.error, table, file);
  const parsed = result.data;
  const fail = (reason: string, key?: string): never => {
    throw new EnvironmentsConfigError(file, key, reason);
  };
  const seen = new Set<string>();
  const environments = (parsed.environments ?? []).map((entry, index): ConfiguredEnvironment => {
    const key = `environments.${index}`;
    const id = entry.id.trim();
    if (id === '') fail('environment id cannot be empty', `${key}.id`);
    if (id === LOCAL_ENVIRONMENT_ID) fail(`environment id \`${LOCAL_ENVIRONMENT_ID}\` is reserved`, `${key}.id`);
    if ((entry.url === undefined) === (entry.program === undefined)) fail(`environment \`${id}\` must set exactly one of url or program`, key);
    if (seen.has(id)) fail(`environment id \`${id}\` is duplicated`, `${key}.id`);
    seen.add(id);
    let transport: EnvironmentTransport;
    if (entry.url !== undefined) {
      if (!isWebSocketUrl(entry.url)) fail(`environment url \`${entry.url}\` must use ws:// or wss://`, `${key}.url`);
      transport = { type: 'websocket', url: entry.url, authBearerToken: entry.auth_bearer_token };
    } else {
      transport = {
        type: 'stdio',
        program: entry.program!,
        args: entry.args ?? [],
        env: entry.env ?? {},
        cwd: entry.cwd === undefined ? undefined : path.resolve(path.dirname(file), entry.cwd),
      };
    }
    return {
      id,
      transport,
      connectTimeoutMs: seconds(entry.connect_timeout_sec),
      initializeTimeoutMs: seconds(entry.initialize_timeout_sec),
      skills: entry.skills,
    };
  });
  const includeLocal = parsed.include_local ?? true;
  const noDefault = parsed.default === NO_DEFAULT_ENVIRONMENT;
  let defaultId: string | undefined;
  if (parsed.default !== undefined && !noDefault) {
    const known = parsed.default === LOCAL_ENVIRONMENT_ID ? includeLocal : seen.has(parsed.default);
    if (!known) fail(`default environment \`${parsed.default}\` is not configured`, 'default');
    defaultId = parsed.default;
  }
  return { path: file, includeLocal, defaultId, noDefault, environments };
}

/** Reads `<homeDir>/environments.toml`; undefined when there is none. */
export async function loadEnvironmentsToml(homeDir: string): Promise<EnvironmentsConfig | undefined> {
  const file = path.join(homeDir, ENVIRONMENTS_TOML);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new EnvironmentsConfigError(file, undefined, (error as Error).message);
  }
  return parseEnvironmentsToml(text, file);
}

/**
 * The ids a thread started without `environments` gets, the primary first: the default, then
 * `local` when included, then the others in file order. None for `default = "none"`: such a thread
 * has no environment, as one started with `environments: []`.
 */
export function defaultEnvironmentIds(config: EnvironmentsConfig): string[] {
  if (config.noDefault) return [];
  const ids = [...(config.includeLocal ? [LOCAL_ENVIRONMENT_ID] : []), ...config.environments.map((environment) => environment.id)];
  if (config.defaultId === undefined) return ids;
  return [config.defaultId, ...ids.filter((id) => id !== config.defaultId)];
}

function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 1000);
}

function isWebSocketUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'ws:' || parsed.protocol === 'wss:';
  } catch {
    return false;
  }
}

/** The first schema problem in serde's words (`unknown field`, `invalid type: map, expected a sequence`, `missing field`). */
function schemaError(error: z.ZodError, table: Record<string, unknown>, file: string): EnvironmentsConfigError {
  const issue = error.issues[0]!;
  const at = issue.path.map(String);
  const key = (parts: readonly string[]) => (parts.length === 0 ? undefined : parts.join('.'));
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys[0]!;
    const expected = (at.length === 0 ? TOP_LEVEL_KEYS : ENTRY_KEYS).map((name) => `\`${name}\``).join(', ');
    return new EnvironmentsConfigError(file, key([...at, field]), `unknown field \`${field}\`, expected one of ${expected}`);
  }
  const value = valueAt(table, issue.path);
  if (issue.code === 'invalid_type') {
    if (value === undefined) return new EnvironmentsConfigError(file, key(at), `missing field \`${at.at(-1) ?? ''}\``);
    return new EnvironmentsConfigError(file, key(at), `invalid type: ${serdeKind(value)}, expected ${serdeExpected(issue.expected)}`);
  }
  return new EnvironmentsConfigError(file, key(at), `invalid value: ${serdeKind(value)}, ${issue.message}`);
}

function valueAt(table: unknown, at: readonly PropertyKey[]): unknown {
  let value = table;
  for (const part of at) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function serdeKind(value: unknown): string {
  if (Array.isArray(value)) return 'sequence';
  if (value instanceof Date) return `datetime \`${value.toISOString()}\``;
  if (typeof value === 'object' && value !== null) return 'map';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (typeof value === 'number') return `${Number.isInteger(value) ? 'integer' : 'floating point'} \`${value}\``;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  return String(value);
}

function serdeExpected(expected: string): string {
  switch (expected) {
    case 'array':
      return 'a sequence';
    case 'object':
    case 'record':
      return 'a map';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'number':
      return 'a number';
    default:
      return expected;
  }
}
