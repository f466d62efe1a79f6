import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { McpClientError } from './mcp-client-error.js';
import { parseServerConfig, resolveServerLaunch } from './mcp-server-config.js';

describe('resolveServerLaunch', () => {
  it('gives a stdio server the inherited variables, its env_vars, then its env table on top', () => {
    const server = parseServerConfig('s', { command: 'srv', args: ['--x'], env: { PATH: '/table/bin', ONLY_TABLE: '1' }, env_vars: ['NAMED', 'NAMED_UNSET'] });
    const launch = resolveServerLaunch('s', server, { PATH: '/host/bin', HOME: '/home/u', NAMED: 'n', SECRET: 'no' });
    expect(launch).toEqual({ transport: 'stdio', command: 'srv', args: ['--x'], cwd: undefined, env: { PATH: '/table/bin', HOME: '/home/u', NAMED: 'n', ONLY_TABLE: '1' } });
  });

  it('gives an HTTP server its headers, env headers that are set, and the bearer token', () => {
    const server = parseServerConfig('h', {
      url: 'https://mcp.example.com/mcp',
      http_headers: { 'X-A': 'a' },
      env_http_headers: { 'X-B': 'B_VAR', 'X-Empty': 'EMPTY_VAR', 'X-Gone': 'GONE_VAR' },
      bearer_token_env_var: 'TOKEN',
    });
    const launch = resolveServerLaunch('h', server, { B_VAR: 'b', EMPTY_VAR: '', TOKEN: 't0k' });
    expect(launch).toEqual({ transport: 'http', url: new URL('https://mcp.example.com/mcp'), headers: { 'X-A': 'a', 'X-B': 'b', Authorization: 'Bearer t0k' } });
  });

  it('refuses an empty bearer token', () => {
    const server = parseServerConfig('h', { url: 'https://mcp.example.com/mcp', bearer_token_env_var: 'TOKEN' });
    expect(() => resolveServerLaunch('h', server, { TOKEN: '' })).toThrow(McpClientError);
  });
});

describe('parseServerConfig', () => {
  it('keeps the keys it does not act on out and the ones it does in', () => {
    expect(parseServerConfig('s', { command: 'srv', required: true, enabled_tools: ['a'], skein_skill_source: true, tool_timeout_sec: 2.5 }))
      .toEqual({ command: 'srv', skein_skill_source: true, tool_timeout_sec: 2.5 });
  });

  it('names every problem of a table at once', () => {
    expect(() => parseServerConfig('s', { command: 'srv', http_headers: { A: 'a' }, bearer_token_env_var: 'T' })).toThrow(
      "MCP server 's': invalid [mcp_servers.s] table: bearer_token_env_var: does not apply to a stdio server; http_headers: does not apply to a stdio server",
    );
  });
});

describe('resolveServerLaunch, for any tables and host environment', () => {
  const names = fc.constantFrom('A', 'B', 'C', 'PATH', 'HOME', 'SECRET');
  const values = fc.constantFrom('', 'x', 'y');
  const strings = fc.dictionary(names, values);

  it('gives a stdio server exactly the inherited, named and table variables, the table winning', () => {
    fc.assert(fc.property(strings, fc.uniqueArray(names), strings, (table, named, host) => {
      const launch = resolveServerLaunch('s', parseServerConfig('s', { command: 'srv', env: table, env_vars: named }), host);
      if (launch.transport !== 'stdio') throw new Error('expected a stdio launch');
      const visible = new Set(['PATH', 'HOME', ...named]);
      const expected = { ...Object.fromEntries(Object.entries(host).filter(([key]) => visible.has(key))), ...table };
      expect(launch.env).toEqual(expected);
    }));
  });

  it('sends the fixed headers, and each env header whose variable is set and not empty', () => {
    fc.assert(fc.property(strings, fc.dictionary(fc.constantFrom('X-1', 'X-2', 'X-3'), names), strings, (fixed, fromEnv, host) => {
      const launch = resolveServerLaunch('h', parseServerConfig('h', { url: 'http://127.0.0.1/mcp', http_headers: fixed, env_http_headers: fromEnv }), host);
      if (launch.transport !== 'http') throw new Error('expected an HTTP launch');
      const expected: Record<string, string> = { ...fixed };
      for (const [header, variable] of Object.entries(fromEnv)) {
        const value = host[variable];
        if (value !== undefined && value !== '') expected[header] = value;
      }
      expect(launch.headers).toEqual(expected);
    }));
  });
});
