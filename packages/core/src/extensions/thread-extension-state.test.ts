import type { JsonValue } from '@skein/extension-api';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MAX_EXTENSION_STATE_VALUE_BYTES, ThreadExtensionState, type ExtensionStateRecord } from './thread-extension-state.js';

describe('ThreadExtensionState', () => {
  it('records every change in order, and skips a set that changes nothing', () => {
    const changes: ExtensionStateRecord[] = [];
    const store = new ThreadExtensionState((change) => changes.push(change)).storeFor('notes');
    store.set('list', ['a']);
    store.set('list', ['a']);
    store.set('list', ['a', 'b']);
    store.delete('list');
    store.delete('never-set');
    expect(changes).toEqual([
      { extensionId: 'notes', key: 'list', value: ['a'] },
      { extensionId: 'notes', key: 'list', value: ['a', 'b'] },
      { extensionId: 'notes', key: 'list', value: undefined },
    ]);
  });

  it('keeps each extension to its own keys and restores without recording', () => {
    const changes: ExtensionStateRecord[] = [];
    const state = new ThreadExtensionState((change) => changes.push(change));
    state.restore([{ extensionId: 'a', key: 'k', value: 1 }]);
    expect(state.storeFor('a').get('k', z.number())).toBe(1);
    expect(state.storeFor('b').get('k')).toBeUndefined();
    expect(changes).toEqual([]);
  });

  it('hands back a frozen JSON copy, so what a turn reads is what a resume reads', () => {
    const store = new ThreadExtensionState().storeFor('notes');
    const value = { when: 1, list: ['a'] };
    store.set('v', value);
    value.list.push('mutated later');
    const read = store.get<{ list: string[] }>('v')!;
    expect(read).toEqual({ when: 1, list: ['a'] });
    expect(() => read.list.push('b')).toThrow(TypeError);
  });

  it('refuses values over the limit, naming the key, and values that are not JSON', () => {
    const store = new ThreadExtensionState().storeFor('notes');
    // Two quotes make the JSON text one byte over.
    expect(() => store.set('big', 'x'.repeat(MAX_EXTENSION_STATE_VALUE_BYTES - 1))).toThrow(/'big'.*at most 262144/);
    store.set('fits', 'x'.repeat(MAX_EXTENSION_STATE_VALUE_BYTES - 2));
    expect(() => store.set('fn', (() => 1) as unknown as JsonValue)).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => store.set('cyclic', cyclic as JsonValue)).toThrow(TypeError);
    expect(store.get('big')).toBeUndefined();
  });
});
