import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { overridesToTable, parseConfigOverride } from './cli-override.js';

describe('parseConfigOverride', () => {
  it.each([
    ['model=gpt-5.5', ['model'], 'gpt-5.5'],
    ['model="gpt-5.5"', ['model'], 'gpt-5.5'],
    ["model='single quoted'", ['model'], 'single quoted'],
    ['model_context_window=200000', ['model_context_window'], 200000],
    ['sandbox_workspace_write.network_access=true', ['sandbox_workspace_write', 'network_access'], true],
    ['ratio=0.5', ['ratio'], 0.5],
    ['roots=["/a", "/b"]', ['roots'], ['/a', '/b']],
    ['model_providers.mock={ name = "Mock", base_url = "http://127.0.0.1:1/v1" }', ['model_providers', 'mock'], { name: 'Mock', base_url: 'http://127.0.0.1:1/v1' }],
    ['shell_environment_policy.inherit=all', ['shell_environment_policy', 'inherit'], 'all'],
    ['query=a=b', ['query'], 'a=b'],
    ['  spaced . key  =  42  ', ['spaced', 'key'], 42],
    ['empty=', ['empty'], ''],
    ['unterminated="abc', ['unterminated'], '"abc'],
    ['two=1\nother = 2', ['two'], '1\nother = 2'],
    ['list=[1, "mixed"]', ['list'], [1, 'mixed']],
  ])('reads %j as path %j and value %j', (raw, path, value) => {
    expect(parseConfigOverride(raw)).toEqual({ raw, path, value });
  });

  it.each(['no-equals-sign', '=value', 'a..b=1', '.a=1', 'a.=1'])('rejects %j with an actionable error', (raw) => {
    expect(() => parseConfigOverride(raw)).toThrow(ConfigError);
    try {
      parseConfigOverride(raw);
    } catch (error) {
      expect((error as ConfigError).code).toBe('InvalidOverride');
      expect((error as ConfigError).message).toContain(`-c ${raw}`);
    }
  });
});

describe('overridesToTable', () => {
  it('nests dotted paths, lets later overrides win and replaces scalars with tables', () => {
    const table = overridesToTable(
      ['a.b.c=1', 'a.b.d=2', 'a.b.c=3', 'x=1', 'x.y=2'].map(parseConfigOverride),
    );
    expect(table).toEqual({ a: { b: { c: 3, d: 2 } }, x: { y: 2 } });
  });
});
