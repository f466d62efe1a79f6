import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MemoryExtensionData } from './extension-data.js';

describe('MemoryExtensionData', () => {
  it('stores, validates on read and deletes values', () => {
    const store = new MemoryExtensionData();
    store.set('count', 3);
    expect(store.get('count', z.number())).toBe(3);
    expect(() => store.get('count', z.string())).toThrow();
    store.delete('count');
    expect(store.get('count')).toBeUndefined();
  });

  it('refuses to grow past its key limit but lets existing keys change', () => {
    const store = new MemoryExtensionData();
    for (let index = 0; index < MemoryExtensionData.MAX_KEYS; index++) store.set(`k${index}`, index);
    expect(() => store.set('one-more', 1)).toThrow(RangeError);
    store.set('k0', 'changed');
    expect(store.get('k0')).toBe('changed');
  });
});
