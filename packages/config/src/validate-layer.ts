// Checks one layer's table against the schema, so an error names the file it came from, and sorts
// its unmodelled top-level keys: a Codex client's setting (loaded silently, as Codex's app-server
// loads it), a Codex runtime setting Skein does not act on yet (a notice), or unknown (a warning).
import type { z } from 'zod';
import { CLIENT_SIDE_CONFIG_KEYS, CODEX_CONFIG_KEYS } from './codex-config-keys.js';
import { ConfigError } from './config-error.js';
import { ConfigToml, MCP_SERVER_KEYS, SKEIN_CONFIG_KEYS } from './config-toml.js';
import type { ConfigWarning } from './config-warning.js';
import type { TomlTable } from './toml-table.js';

/**
 * Validates `table` (from `origin`); returns the warnings for keys Skein does not act on. Settings of
 * Codex's own clients (`check_for_update_on_startup`, `[analytics]`, `[tui]`, …) load without one, as
 * in Codex: a warning for each would reach every app-server client as `configWarning`. A runtime
 * setting Skein ignores (`notify`, `hooks`, `mcp_servers`, …) is announced, so nobody relies on it
 * unknowingly. `strict` (`--strict-config`) refuses every key Skein does not act on.
 */
export function validateLayer(table: TomlTable, origin: string, strict: boolean): ConfigWarning[] {
  const result = ConfigToml.safeParse(table, { reportInput: true });
  if (!result.success) throw toConfigError(result.error, origin);
  const warnings: ConfigWarning[] = [];
  for (const key of Object.keys(table)) {
    if (SKEIN_CONFIG_KEYS.has(key)) continue;
    const known = CODEX_CONFIG_KEYS.has(key);
    if (strict) {
      const reason = known ? 'a Codex setting Skein does not act on yet' : 'not a known setting; check the spelling';
      throw new ConfigError('UnknownKey', origin, key, `${reason} (--strict-config)`);
    }
    if (!known) warnings.push({ code: 'UnknownKey', origin, key, message: `${origin}: ${key}: not a known setting; check the spelling` });
    else if (!CLIENT_SIDE_CONFIG_KEYS.has(key)) warnings.push({ code: 'NotYetSupported', origin, key, message: `${origin}: ${key}: a Codex setting Skein does not act on yet; it is ignored` });
  }
  warnings.push(...mcpServerKeyWarnings(table, origin, strict));
  return warnings;
}

/** A key of an `[mcp_servers.<name>]` table that no server reads: a typo, or a setting of another version. */
function mcpServerKeyWarnings(table: TomlTable, origin: string, strict: boolean): ConfigWarning[] {
  const servers = table.mcp_servers;
  if (typeof servers !== 'object' || servers === null) return [];
  const warnings: ConfigWarning[] = [];
  for (const [name, server] of Object.entries(servers as Record<string, unknown>)) {
    if (typeof server !== 'object' || server === null) continue;
    for (const key of Object.keys(server)) {
      if (MCP_SERVER_KEYS.has(key)) continue;
      const dotted = `mcp_servers.${name}.${key}`;
      if (strict) throw new ConfigError('UnknownKey', origin, dotted, 'not a setting of an MCP server (--strict-config)');
      warnings.push({ code: 'UnknownKey', origin, key: dotted, message: `${origin}: ${dotted}: not a setting of an MCP server; it is ignored` });
    }
  }
  return warnings;
}

/** The first zod issue as a ConfigError naming the dotted key and what was expected. */
function toConfigError(error: z.ZodError, origin: string): ConfigError {
  const issue = error.issues[0];
  const key = issue === undefined || issue.path.length === 0 ? undefined : issue.path.map(String).join('.');
  const received = issue !== undefined && 'input' in issue ? ` (got ${describe(issue.input)})` : '';
  return new ConfigError('InvalidValue', origin, key, `${issue?.message ?? 'invalid value'}${received}`);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
