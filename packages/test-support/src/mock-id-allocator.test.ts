// Deterministic mock ids: counters and placeholder resolution.
import { describe, expect, it } from 'vitest';
import { DeferredId, RESPONSE_ID } from './deferred-id.js';
import { MockIdAllocator, resolveDeferredIds } from './mock-id-allocator.js';

describe('MockIdAllocator', () => {
  it('numbers items and calls on one counter and responses on another', () => {
    const ids = new MockIdAllocator();

    expect([ids.nextItemId('fc'), ids.nextItemId('call'), ids.nextResponseId(), ids.nextItemId('msg'), ids.nextResponseId()]).toEqual([
      'fc_mock_0001',
      'call_mock_0002',
      'resp_mock_0001',
      'msg_mock_0003',
      'resp_mock_0002',
    ]);
  });

  it('resolves each placeholder once per scope, in reading order', () => {
    const ids = new MockIdAllocator();
    const item = new DeferredId('msg');
    const call = new DeferredId('call');
    const value = { response: { id: RESPONSE_ID }, a: item, nested: [{ call, again: item }], fixed: 'x' };

    expect(resolveDeferredIds(value, ids.scope())).toEqual({
      response: { id: 'resp_mock_0001' },
      a: 'msg_mock_0001',
      nested: [{ call: 'call_mock_0002', again: 'msg_mock_0001' }],
      fixed: 'x',
    });
    // A new scope (the next served response) gets new ids for the same placeholders.
    expect(resolveDeferredIds([item, RESPONSE_ID], ids.scope())).toEqual(['msg_mock_0003', 'resp_mock_0002']);
  });

  it('shows where an id will go when a script is printed', () => {
    expect(JSON.stringify({ id: new DeferredId('fc') })).toBe('{"id":"<fc_mock_?>"}');
  });
});
