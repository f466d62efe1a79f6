// Server tables that start the fixture servers, for the tests.
import path from 'node:path';
import type { McpServerConfig } from '../src/index.js';
import type { FixtureBehaviour } from './fixtures/resource-server.mjs';

export const STDIO_SERVER = path.join(import.meta.dirname, 'fixtures', 'stdio-server.mjs');

/** A `[mcp_servers.<name>]` table that runs the stdio fixture with `behaviour`. */
export function stdioServer(behaviour: FixtureBehaviour | 'silent' = 'catalog', extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: process.execPath, args: [STDIO_SERVER, behaviour], ...extra };
}

/** The host environment the tests hand the client: just enough to run node. */
export function hostEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}
