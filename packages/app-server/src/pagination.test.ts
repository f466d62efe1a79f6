import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppServerRequestError } from './app-server-error.js';
import { MAX_PAGE_SIZE } from './limits.js';
import { paginate, type Page } from './pagination.js';

describe('paginate', () => {
  it('walks every item exactly once, in order, whatever the page size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 60 }), fc.integer({ min: 1, max: 25 }), (items, limit) => {
        const seen: number[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: Page<number> = paginate(items, { cursor, limit });
          seen.push(...page.data);
          cursor = page.nextCursor;
          pages += 1;
        } while (cursor !== null);
        expect(seen).toEqual(items);
        expect(pages).toBe(Math.max(1, Math.ceil(items.length / limit)));
      }),
    );
  });

  it('caps the page size and treats a zero limit as one', () => {
    const items = Array.from({ length: MAX_PAGE_SIZE + 5 }, (_, index) => index);
    expect(paginate(items, {}).data).toHaveLength(MAX_PAGE_SIZE);
    expect(paginate(items, {}).nextCursor).toBe(String(MAX_PAGE_SIZE));
    expect(paginate(items, { limit: 0 }).data).toEqual([0]);
  });

  it('refuses a cursor that is not an offset into the list, as Codex words it', () => {
    for (const cursor of ['bogus', '-1', '1.5', '99']) {
      expect(() => paginate([1, 2, 3], { cursor })).toThrow(new AppServerRequestError(-32600, `invalid cursor: ${cursor}`));
    }
  });
});
