import { describe, expect, it } from 'vitest';
import { ThreadSubscriptions, type ThreadSubscriber } from './thread-subscriptions.js';

function subscriber(id: number): ThreadSubscriber & { received: [string, unknown][] } {
  const received: [string, unknown][] = [];
  return { id, received, notify: (method, params) => received.push([method, params]) };
}

describe('ThreadSubscriptions', () => {
  it('delivers a thread\'s broadcast to its subscribers only', () => {
    const subscriptions = new ThreadSubscriptions();
    const [a, b, c] = [subscriber(1), subscriber(2), subscriber(3)];
    expect(subscriptions.subscribe('t1', a)).toBe(true);
    expect(subscriptions.subscribe('t1', a)).toBe(false);
    subscriptions.subscribe('t1', b);
    subscriptions.subscribe('t2', c);
    expect(subscriptions.broadcast('t1', 'turn/started', { n: 1 })).toBe(2);
    expect(a.received).toEqual([['turn/started', { n: 1 }]]);
    expect(b.received).toEqual([['turn/started', { n: 1 }]]);
    expect(c.received).toEqual([]);
    expect(subscriptions.broadcast('nobody', 'x', {})).toBe(0);
  });

  it('forgets a subscriber everywhere, and a thread once its last subscriber leaves', () => {
    const subscriptions = new ThreadSubscriptions();
    const [a, b] = [subscriber(1), subscriber(2)];
    subscriptions.subscribe('t1', a);
    subscriptions.subscribe('t2', a);
    subscriptions.subscribe('t2', b);
    expect(subscriptions.threadsOf(a).sort()).toEqual(['t1', 't2']);
    expect(subscriptions.removeSubscriber(a).sort()).toEqual(['t1', 't2']);
    expect(subscriptions.subscribers('t1')).toEqual([]);
    expect(subscriptions.subscribers('t2')).toEqual([b]);
    expect(subscriptions.unsubscribe('t2', a)).toBe(false);
    expect(subscriptions.isSubscribed('t2', b)).toBe(true);
  });
});
