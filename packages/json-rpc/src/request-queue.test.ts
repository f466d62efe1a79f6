import { describe, expect, it } from 'vitest';
import { RequestQueue } from './request-queue.js';

/** A queue whose requests finish only when the test says so; with `reads`, even numbers only read. */
function harness(maxQueued: number, concurrency: number, reads?: number) {
  const started: number[] = [];
  const refused: [number, unknown][] = [];
  const finish = new Map<number, () => void>();
  const queue = new RequestQueue<number>({
    maxQueued,
    concurrency,
    overloadedMessage: 'busy; retry later',
    run: (request) =>
      new Promise<void>((resolve) => {
        started.push(request);
        finish.set(request, resolve);
      }),
    refuse: (request, error) => refused.push([request, error]),
    ...(reads === undefined ? {} : { reads: { isRead: (request: number) => request % 2 === 0, concurrency: reads } }),
  });
  const complete = async (request: number): Promise<void> => {
    finish.get(request)?.();
    // Let the queue's `finally` run and start the next request.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, refused, complete };
}

describe('RequestQueue', () => {
  it('runs at most `concurrency` requests at once, in arrival order', async () => {
    const { queue, started, complete } = harness(10, 2);
    for (const request of [1, 2, 3, 4]) queue.push(request);
    expect(started).toEqual([1, 2]);
    await complete(2);
    expect(started).toEqual([1, 2, 3]);
    await complete(1);
    expect(started).toEqual([1, 2, 3, 4]);
  });

  it('runs reads together up to their own limit, but never past an earlier write, nor a write past an earlier read', async () => {
    const { queue, started, complete } = harness(20, 1, 3);
    for (const request of [2, 4, 6, 8, 1, 10, 3]) queue.push(request);
    // Three reads at once (their limit); the fourth waits for room.
    expect(started).toEqual([2, 4, 6]);
    await complete(4);
    expect(started).toEqual([2, 4, 6, 8]);
    // The write waits for every earlier read; the read behind it waits for the write.
    await complete(2);
    await complete(6);
    expect(started).toEqual([2, 4, 6, 8]);
    await complete(8);
    expect(started).toEqual([2, 4, 6, 8, 1]);
    await complete(1);
    expect(started).toEqual([2, 4, 6, 8, 1, 10]);
    await complete(10);
    expect(started).toEqual([2, 4, 6, 8, 1, 10, 3]);
    await complete(3);
    expect(queue.size).toBe(0);
  });

  it('answers -32001 with the server\'s message once waiting plus running reach the limit', async () => {
    const { queue, started, refused, complete } = harness(2, 1);
    expect(queue.push(1)).toBe(true);
    expect(queue.push(2)).toBe(true);
    expect(queue.push(3)).toBe(false);
    expect(refused).toEqual([[3, { code: -32001, message: 'busy; retry later' }]]);
    expect(queue.size).toBe(2);
    await complete(1);
    expect(queue.push(4)).toBe(true);
    expect(started).toEqual([1, 2]);
  });

  it('drains once everything pushed has finished, and at once after close', async () => {
    const { queue, complete } = harness(4, 1);
    queue.push(1);
    queue.push(2);
    let drained = false;
    const draining = queue.drain().then(() => (drained = true));
    await complete(1);
    expect(drained).toBe(false);
    await complete(2);
    await draining;
    expect(drained).toBe(true);
    queue.push(3);
    queue.close();
    await queue.drain();
    expect(queue.push(4)).toBe(false);
  });

  it('refuses limits that are not positive integers', () => {
    const base = { overloadedMessage: '', run: () => Promise.resolve(), refuse: () => undefined };
    expect(() => new RequestQueue({ ...base, maxQueued: 0, concurrency: 1 })).toThrow(RangeError);
    expect(() => new RequestQueue({ ...base, maxQueued: 1, concurrency: 1.5 })).toThrow(RangeError);
  });
});
