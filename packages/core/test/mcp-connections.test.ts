// A thread's MCP servers as its tools and hooks ask for them. A hook of a thread's first turn can
// ask on the very tick the thread opened, before the background start began: the call starts the
// server, once. A server that failed to start answers every later call with why, as it said it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MCP_FIXTURE_SERVER } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpConnections } from '../src/mcp/mcp-connections.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-mcp-connections-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hostEnv = () => ({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir });

describe('McpConnections', () => {
  it('starts a server asked for before start(), and start() does not start it again', async () => {
    const startLog = path.join(dir, 'starts.log');
    const statuses: string[] = [];
    const connections = new McpConnections(
      { fixture: { command: process.execPath, args: [MCP_FIXTURE_SERVER, 'tools'], env: { FIXTURE_START_LOG: startLog } } },
      { env: hostEnv(), onStatus: (status) => statuses.push(status.status), onWarning: () => undefined },
    );
    try {
      const ready = await connections.server('fixture');
      expect(ready.tools.map((tool) => tool.name)).toContain('echo');
      connections.start();
      await connections.settled();
      expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(1);
      expect(statuses).toEqual(['starting', 'ready']);
    } finally {
      await connections.close();
    }
  });

  it('answers calls to a server that failed to start with its own error, named once', async () => {
    const connections = new McpConnections({ broken: { command: path.join(dir, 'no-such-server') } }, { env: hostEnv(), onStatus: () => undefined, onWarning: () => undefined });
    try {
      connections.start();
      await connections.settled();
      const error = await connections.server('broken').then(() => undefined, (failure: unknown) => failure as Error);
      expect(error?.message).toMatch(/^MCP server 'broken': cannot start `.*no-such-server`/);
      expect(error?.message).not.toMatch(/MCP server 'broken': MCP server/);
    } finally {
      await connections.close();
    }
  });
});
