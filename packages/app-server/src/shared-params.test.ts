import { describe, expect, it } from 'vitest';
import { SharedParams, notificationText } from './shared-params.js';

describe('notificationText', () => {
  it('writes what serialising the whole notification writes', () => {
    const cases: unknown[] = [{ threadId: 't', delta: 'é "quoted" \n' }, [1, 'two', null], 'text', 0, null, undefined, { nested: { at: undefined, list: [undefined] } }];
    for (const params of cases) {
      expect(notificationText('item/agentMessage/delta', new SharedParams(params), 1_764_500_000_123)).toBe(JSON.stringify({ method: 'item/agentMessage/delta', params, emittedAtMs: 1_764_500_000_123 }));
    }
  });

  it('serialises the params once for every client', () => {
    let reads = 0;
    const params = {
      toJSON() {
        reads += 1;
        return { n: 1 };
      },
    };
    const shared = new SharedParams(params);
    expect([notificationText('a', shared, 1), notificationText('a', shared, 2)]).toEqual(['{"method":"a","params":{"n":1},"emittedAtMs":1}', '{"method":"a","params":{"n":1},"emittedAtMs":2}']);
    expect(reads).toBe(1);
  });
});
