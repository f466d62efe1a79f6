import { describe, expect, it } from 'vitest';
import { mapConcurrently } from './map-concurrently.js';

describe('mapConcurrently', () => {
  it('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapConcurrently([5, 1, 4, 2, 3, 0], 2, async (value) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return value * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
    expect(await mapConcurrently([], 4, () => Promise.resolve(1))).toEqual([]);
  });
});
