import type { Config } from '@skein/config';
import { describe, expect, it } from 'vitest';
import { sessionOverrides } from './thread-settings.js';

const configWith = (layers: Config['layers']): Config => ({ layers }) as unknown as Config;

describe('sessionOverrides', () => {
  it('turns the sessionFlags layer back into -c overrides, nested tables inline, so a change layers over them', () => {
    const config = configWith([
      { name: { type: 'user', file: '/home/config.toml' }, origin: '/home/config.toml', table: { model: 'from-file' } },
      { name: { type: 'sessionFlags' }, origin: '-c', table: { model: 'gpt-5.5', sandbox_mode: 'workspace-write', features: { web_search: true }, when: new Date('2026-01-02T03:04:05.000Z') } },
    ]);
    expect(sessionOverrides(config)).toEqual(['model="gpt-5.5"', 'sandbox_mode="workspace-write"', 'features={ "web_search" = true }', 'when=2026-01-02T03:04:05.000Z']);
  });

  it('is empty for a thread started without overrides', () => {
    expect(sessionOverrides(configWith([{ name: { type: 'user', file: '/c.toml' }, origin: '/c.toml', table: {} }]))).toEqual([]);
  });
});
