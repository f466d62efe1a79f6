// The MCP fixture server (fixtures/mcp-fixture-server.mjs, a real SDK server with tools and
// resources) for tests: its path and a config table that runs it over stdio, or an in-process
// streamable-HTTP instance.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixture's script; `node <it> [behaviour]` serves MCP over stdio (behaviours: see the script's head). */
export const MCP_FIXTURE_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mcp-fixture-server.mjs');

/** A `[mcp_servers.<name>]` table (TOML text) that runs the stdio fixture with `behaviour`, plus `extra` lines. */
export function mcpFixtureServerToml(name: string, behaviour = 'tools', extra: readonly string[] = []): string {
  return [`[mcp_servers.${name}]`, `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(MCP_FIXTURE_SERVER)}, ${JSON.stringify(behaviour)}]`, ...extra, ''].join('\n');
}

/** The fixture served over streamable HTTP on 127.0.0.1. */
export interface McpHttpFixture {
  /** The MCP endpoint (`http://127.0.0.1:<port>/mcp`). */
  readonly url: string;
  /** The `authorization` header of each request, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** Starts the fixture over streamable HTTP, stateless: one SDK server per POST. */
export async function startMcpHttpFixture(behaviour = 'tools'): Promise<McpHttpFixture> {
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const fixture = (await import(MCP_FIXTURE_SERVER)) as { createFixtureServer(behaviour: string): { connect(transport: unknown): Promise<void>; close(): Promise<void> } };
  const authorizations: (string | undefined)[] = [];
  const http = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const server = fixture.createFixtureServer(behaviour);
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}
