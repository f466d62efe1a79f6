import { describe, expect, it } from 'vitest';
import { ConfigReads } from './config-reads.js';
import type { LoadedConfig } from './load-config.js';
import { LoadedConfigCache } from './loaded-config-cache.js';

// The cache only stores and hands back what it is given; a stand-in result is enough here.
const loaded = (name: string) => ({ name }) as unknown as LoadedConfig;

describe('LoadedConfigCache', () => {
  it('drops the least recently used entry past its limit', () => {
    const cache = new LoadedConfigCache(2);
    const [a, b, c] = [loaded('a'), loaded('b'), loaded('c')];
    cache.set('a', a, new ConfigReads());
    cache.set('b', b, new ConfigReads());
    expect(cache.get('a')).toBe(a); // now the most recent

    cache.set('c', c, new ConfigReads());

    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);
    expect(cache.get('c')).toBe(c);
  });
});
