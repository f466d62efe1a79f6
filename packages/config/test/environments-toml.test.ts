// environments.toml as Codex 0.171.0 reads it: every error text, the defaults, and the file on disk.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, defaultEnvironmentIds, EnvironmentsConfigError, loadEnvironmentsToml, parseEnvironmentsToml } from '../src/index.js';

const FILE = '/home/user/.codex/environments.toml';
const PREFIX = `exec-server protocol error: failed to parse environment config \`${FILE}\`: `;

function refusal(text: string): EnvironmentsConfigError {
  try {
    parseEnvironmentsToml(text, FILE);
  } catch (error) {
    if (error instanceof EnvironmentsConfigError) return error;
    throw error;
  }
  throw new Error(`should have been refused:\n${text}`);
}

describe('parseEnvironmentsToml', () => {
  it('reads websocket and program entries, with Codex defaults', () => {
    const config = parseEnvironmentsToml(
      [
        'default = "remote"',
        '[[environments]]',
        'id = "remote"',
        'url = "wss://executor.example:4500"',
        'auth_bearer_token = "secret"',
        'connect_timeout_sec = 2.5',
        'initialize_timeout_sec = 7',
        '[environments.skills]',
        'enabled = true',
        '[[environments]]',
        'id = "spawned"',
        'program = "skein"',
        'args = ["exec-server", "--listen", "stdio"]',
        'cwd = "work"',
        'env = { A = "1" }',
      ].join('\n'),
      FILE,
    );
    expect(config).toEqual({
      path: FILE,
      includeLocal: true,
      defaultId: 'remote',
      noDefault: false,
      environments: [
        {
          id: 'remote',
          transport: { type: 'websocket', url: 'wss://executor.example:4500', authBearerToken: 'secret' },
          connectTimeoutMs: 2500,
          initializeTimeoutMs: 7000,
          skills: { enabled: true },
        },
        {
          id: 'spawned',
          transport: { type: 'stdio', program: 'skein', args: ['exec-server', '--listen', 'stdio'], env: { A: '1' }, cwd: '/home/user/.codex/work' },
          connectTimeoutMs: undefined,
          initializeTimeoutMs: undefined,
          skills: undefined,
        },
      ],
    });
    expect(defaultEnvironmentIds(config)).toEqual(['remote', 'local', 'spawned']);
  });

  it('accepts an empty file: local only', () => {
    const config = parseEnvironmentsToml('', FILE);
    expect(config).toEqual({ path: FILE, includeLocal: true, defaultId: undefined, noDefault: false, environments: [] });
    expect(defaultEnvironmentIds(config)).toEqual(['local']);
  });

  it('accepts default = "none" (no environment for threads) and include_local = false', () => {
    const config = parseEnvironmentsToml('default = "none"\ninclude_local = false\n[[environments]]\nid = "a"\nurl = "ws://127.0.0.1:1"\n', FILE);
    expect(config).toMatchObject({ includeLocal: false, defaultId: undefined, noDefault: true });
    expect(defaultEnvironmentIds(config)).toEqual([]);
    expect(defaultEnvironmentIds(parseEnvironmentsToml('include_local = false\n[[environments]]\nid = "a"\nurl = "ws://x"\n[[environments]]\nid = "b"\nurl = "ws://y"\n', FILE))).toEqual(['a', 'b']);
    expect(defaultEnvironmentIds(parseEnvironmentsToml('default = "local"\n', FILE))).toEqual(['local']);
  });

  it.each([
    ['[[environments]]\nid = ""\nurl = "ws://x"', 'environment id cannot be empty'],
    ['[[environments]]\nid = "local"\nurl = "ws://x"', 'environment id `local` is reserved'],
    ['[[environments]]\nid = "a"', 'environment `a` must set exactly one of url or program'],
    ['[[environments]]\nid = "a"\nurl = "ws://x"\nprogram = "skein"', 'environment `a` must set exactly one of url or program'],
    ['[[environments]]\nid = "a"\nurl = "ws://x"\n[[environments]]\nid = "a"\nurl = "ws://y"', 'environment id `a` is duplicated'],
    ['[[environments]]\nid = "a"\nurl = "http://x"', 'environment url `http://x` must use ws:// or wss://'],
    ['default = "zz"\n[[environments]]\nid = "a"\nurl = "ws://x"', 'default environment `zz` is not configured'],
    ['default = "local"\ninclude_local = false', 'default environment `local` is not configured'],
  ])('refuses %j: %s', (text, reason) => {
    const error = refusal(text);
    expect(error.message).toBe(`${PREFIX}${reason}`);
    expect(error.reason).toBe(reason);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('InvalidEnvironments');
  });

  it.each([
    ['surprise = 1', '', 'unknown field `surprise`, expected one of `default`, `include_local`, `environments`'],
    ['[[environments]]\nid = "a"\nurl = "ws://x"\nhost = "y"', 'environments.0.host', 'unknown field `host`, expected one of `id`, `skills`, `url`, `auth_bearer_token`, `program`, `args`, `env`, `cwd`, `connect_timeout_sec`, `initialize_timeout_sec`'],
    ['[environments.a]\nurl = "ws://x"', 'environments', 'invalid type: map, expected a sequence'],
    ['include_local = "yes"', 'include_local', 'invalid type: string "yes", expected a boolean'],
    ['[[environments]]\nurl = "ws://x"', 'environments.0.id', 'missing field `id`'],
  ])('refuses %j in serde words', (text, key, reason) => {
    const error = refusal(text);
    expect(error.message).toBe(`${PREFIX}${reason}`);
    expect(error.key).toBe(key === '' ? 'surprise' : key);
  });

  it('names the line and column of a TOML syntax error', () => {
    expect(refusal('default = ').message).toMatch(new RegExp(`^${PREFIX.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}TOML parse error at line 1, column \\d+: `));
  });
});

describe('loadEnvironmentsToml', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'skein-environments-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('is undefined without the file, and reads it when there is one', async () => {
    expect(await loadEnvironmentsToml(home)).toBeUndefined();
    writeFileSync(path.join(home, 'environments.toml'), '[[environments]]\nid = "a"\nurl = "ws://127.0.0.1:4500"\n');
    expect((await loadEnvironmentsToml(home))?.environments.map((environment) => environment.id)).toEqual(['a']);
    writeFileSync(path.join(home, 'environments.toml'), '[[environments]]\nid = "local"\nurl = "ws://127.0.0.1:4500"\n');
    await expect(loadEnvironmentsToml(home)).rejects.toThrow(
      `exec-server protocol error: failed to parse environment config \`${path.join(home, 'environments.toml')}\`: environment id \`local\` is reserved`,
    );
  });
});
