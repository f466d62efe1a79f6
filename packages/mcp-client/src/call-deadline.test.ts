import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CallDeadline } from './call-deadline.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('fires on the timeout and says so', () => {
  const deadline = new CallDeadline(100, undefined, new AbortController().signal);
  vi.advanceTimersByTime(99);
  expect(deadline.signal.aborted).toBe(false);
  vi.advanceTimersByTime(1);
  expect([deadline.signal.aborted, deadline.cause]).toEqual([true, 'timeout']);
});

it('keeps the first cause: an abort before the timeout stays an abort', () => {
  const caller = new AbortController();
  const deadline = new CallDeadline(100, caller.signal, new AbortController().signal);
  caller.abort();
  vi.advanceTimersByTime(200);
  expect(deadline.cause).toBe('aborted');
});

it('tells the owner closing from the caller aborting, also when either came first', () => {
  const owner = new AbortController();
  owner.abort();
  expect(new CallDeadline(100, undefined, owner.signal).cause).toBe('closed');
  const caller = new AbortController();
  caller.abort();
  expect(new CallDeadline(100, caller.signal, new AbortController().signal).cause).toBe('aborted');
});

it('stops listening once disposed', () => {
  const caller = new AbortController();
  const deadline = new CallDeadline(100, caller.signal, new AbortController().signal);
  deadline.dispose();
  caller.abort();
  vi.advanceTimersByTime(200);
  expect(deadline.cause).toBeUndefined();
});
