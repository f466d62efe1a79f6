// The `[mcp_servers.<name>]` table as this client reads it, and the launch it resolves to. The fields
// and their meaning are Codex's (plus `skein_skill_source`); @skein/config's McpServerToml values fit.
import * as z from 'zod';
import { McpClientError } from './mcp-client-error.js';
import { lazySchema } from '@skein/protocol';

const stringMap = lazySchema(() => z.record(z.string(), z.string()).readonly());
const positiveSeconds = lazySchema(() => z.number().positive());

/** One `[mcp_servers.<name>]` table: a stdio server (`command`) or a streamable HTTP server (`url`). */
export const McpServerConfig = lazySchema(() => z
  .object({
    enabled: z.boolean().optional(),
    startup_timeout_sec: positiveSeconds.optional(),
    tool_timeout_sec: positiveSeconds.optional(),
    /** Ours: the server serves skills as `mcp/skill` resources (see README). */
    skein_skill_source: z.boolean().optional(),
    command: z.string().min(1, 'command cannot be empty').optional(),
    args: z.array(z.string()).readonly().optional(),
    env: stringMap.optional(),
    /** Names of variables copied from the host environment into the server's. */
    env_vars: z.array(z.string().min(1)).readonly().optional(),
    cwd: z.string().min(1).optional(),
    url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
    /** Variable whose value is sent as `Authorization: Bearer …`. */
    bearer_token_env_var: z.string().min(1).optional(),
    http_headers: stringMap.optional(),
    /** Header name → variable holding its value; unset variables send no header. */
    env_http_headers: stringMap.optional(),
  })
  .superRefine((server, context) => {
    if ((server.command === undefined) === (server.url === undefined)) {
      context.addIssue({ code: 'custom', message: 'set exactly one of `command` (stdio) or `url` (streamable HTTP)' });
      return;
    }
    const wrongKind = server.command !== undefined
      ? (['bearer_token_env_var', 'http_headers', 'env_http_headers'] as const).filter((key) => server[key] !== undefined)
      : (['args', 'env', 'env_vars', 'cwd'] as const).filter((key) => server[key] !== undefined);
    for (const key of wrongKind) {
      context.addIssue({ code: 'custom', path: [key], message: `does not apply to a ${server.command !== undefined ? 'stdio' : 'streamable HTTP'} server` });
    }
  }));
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** The environment the client reads `env_vars`, `bearer_token_env_var` and `env_http_headers` from. */
export type McpHostEnv = Readonly<Record<string, string | undefined>>;

/** What to start or reach, resolved from a table and the host environment. */
export type ServerLaunch =
  | { readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Record<string, string>; readonly cwd: string | undefined }
  | { readonly transport: 'http'; readonly url: URL; readonly headers: Record<string, string> };

// A stdio server sees only these of the host's variables unless its table names more (`env_vars`),
// so secrets in the host environment do not leak into every server.
const INHERITED_ENV_VARS = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'];

/** Parses a server table; a table that cannot be used is an `InvalidConfig` error naming each problem. */
export function parseServerConfig(name: string, server: unknown): McpServerConfig {
  const parsed = McpServerConfig.safeParse(server);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  throw new McpClientError('InvalidConfig', name, `invalid [mcp_servers.${name}] table: ${problems.join('; ')}`);
}

/** Resolves a parsed table against the host environment into a launch. */
export function resolveServerLaunch(name: string, server: McpServerConfig, hostEnv: McpHostEnv): ServerLaunch {
  if (server.command !== undefined) {
    const env: Record<string, string> = {};
    for (const key of [...INHERITED_ENV_VARS, ...(server.env_vars ?? [])]) {
      const value = hostEnv[key];
      if (value !== undefined) env[key] = value;
    }
    Object.assign(env, server.env);
    return { transport: 'stdio', command: server.command, args: server.args ?? [], env, cwd: server.cwd };
  }
  if (server.url === undefined) throw new McpClientError('InvalidConfig', name, 'no `command` or `url`');
  const headers: Record<string, string> = { ...server.http_headers };
  for (const [header, variable] of Object.entries(server.env_http_headers ?? {})) {
    const value = hostEnv[variable];
    if (value !== undefined && value !== '') headers[header] = value;
  }
  if (server.bearer_token_env_var !== undefined) {
    const token = hostEnv[server.bearer_token_env_var];
    if (token === undefined || token === '') {
      throw new McpClientError('InvalidConfig', name, `bearer_token_env_var names ${server.bearer_token_env_var}, which is not set; export it or remove the key`);
    }
    headers.Authorization = `Bearer ${token}`;
  }
  return { transport: 'http', url: new URL(server.url), headers };
}
