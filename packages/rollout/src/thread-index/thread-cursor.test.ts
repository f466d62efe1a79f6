import { describe, expect, it } from 'vitest';
import { decodeThreadCursor, encodeThreadCursor } from './thread-cursor.js';

describe('thread cursors', () => {
  it('round-trips', () => {
    const cursor = { sortKey: 'updated' as const, time: 1_796_039_639_000, id: '01a22c4d-ffd3-7ce3-89c0-3f95d4b0798b' };
    expect(decodeThreadCursor(encodeThreadCursor(cursor))).toEqual(cursor);
  });

  it('refuses text it did not issue', () => {
    expect(() => decodeThreadCursor('not-a-cursor')).toThrow(expect.objectContaining({ code: 'InvalidCursor' }) as Error);
    expect(() => decodeThreadCursor(Buffer.from('{"k":"sideways","t":1,"id":"x"}').toString('base64url'))).toThrow(expect.objectContaining({ code: 'InvalidCursor' }) as Error);
  });
});
