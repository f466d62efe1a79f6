import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

describe('lazySchema', () => {
  it('builds the schema once, on first use, and validates as the schema itself', () => {
    let builds = 0;
    const Entry = lazySchema(() => {
      builds += 1;
      return z.object({ name: z.string(), size: z.number().int() });
    });
    expect(builds).toBe(0);
    expect(Entry.parse({ name: 'a', size: 1, extra: true })).toEqual({ name: 'a', size: 1 });
    expect(Entry.safeParse({ name: 'a', size: 1.5 }).success).toBe(false);
    // Embedded in an eager schema, and with a method called on it, it is still the one schema.
    const List = z.object({ entries: z.array(Entry), first: Entry.nullish() });
    expect(List.parse({ entries: [{ name: 'b', size: 2 }], first: null })).toEqual({ entries: [{ name: 'b', size: 2 }], first: null });
    expect(() => List.parse({ entries: [{ name: 3, size: 2 }] })).toThrow(z.ZodError);
    expect(Entry instanceof z.ZodObject).toBe(true);
    expect(Object.keys(Entry.shape)).toEqual(['name', 'size']);
    expect(builds).toBe(1);
  });

  it('defers a shape that other schemas spread into theirs', () => {
    let builds = 0;
    const common = lazySchema(() => {
      builds += 1;
      return { id: z.string(), note: z.string().optional() };
    });
    expect(builds).toBe(0);
    const Request = z.object({ ...common, method: z.string() });
    expect(Object.keys(Request.shape)).toEqual(['id', 'note', 'method']);
    expect(Request.parse({ id: 'a', method: 'm' })).toEqual({ id: 'a', method: 'm' });
    expect(Request.safeParse({ id: 1, method: 'm' }).success).toBe(false);
    expect(builds).toBe(1);
  });
});
