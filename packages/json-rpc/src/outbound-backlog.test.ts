// OutboundBacklog: the bytes waiting behind the message a transport is writing, released in order.
import { describe, expect, it } from 'vitest';
import { OutboundBacklog } from './outbound-backlog.js';

describe('OutboundBacklog', () => {
  it('counts what waits behind the message being written, not that message', () => {
    const backlog = new OutboundBacklog();
    expect(backlog.waitingBytes).toBe(0);
    const bigWritten = backlog.add(10_000_000);
    expect(backlog.waitingBytes).toBe(0);
    const smallWritten = backlog.add(100);
    backlog.add(50);
    expect(backlog.waitingBytes).toBe(150);
    bigWritten();
    expect(backlog.waitingBytes).toBe(50);
    smallWritten();
    expect(backlog.waitingBytes).toBe(0);
  });

  it('stays exact over many messages written as they come and in long runs', () => {
    const backlog = new OutboundBacklog();
    for (let round = 0; round < 3; round += 1) {
      const written = Array.from({ length: 5000 }, () => backlog.add(3));
      expect(backlog.waitingBytes).toBe(3 * 4999);
      for (const [index, done] of written.entries()) {
        done();
        expect(backlog.waitingBytes).toBe(Math.max(0, 3 * (4998 - index)));
      }
    }
    backlog.add(7)();
    expect(backlog.waitingBytes).toBe(0);
  });
});
