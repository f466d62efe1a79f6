// The committed config.schema.json must be what the zod schema generates today.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_CONFIG_KEYS, configJsonSchema } from '../src/index.js';

describe('config.schema.json', () => {
  it('is up to date with the zod schema (regenerate: pnpm --filter @skein/config build && pnpm --filter @skein/config generate-schema)', () => {
    const committed = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'config.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(configJsonSchema());
  });

  it("describes every key Skein acts on, each of which Codex knows too, except Skein's own [skein] table", () => {
    const properties = Object.keys((configJsonSchema().properties ?? {}));
    expect(properties).toContain('model_providers');
    expect(properties).toContain('skein');
    expect(properties.filter((key) => !CODEX_CONFIG_KEYS.has(key))).toEqual(['skein']);
  });
});

describe('CODEX_CONFIG_KEYS', () => {
  it('matches the key list recorded from Codex 0.171.0', () => {
    const recorded = readFileSync(path.join(import.meta.dirname, 'fixtures', 'codex-config-keys.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect([...CODEX_CONFIG_KEYS].sort()).toEqual(recorded.sort());
  });
});
