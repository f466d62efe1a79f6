import { describe, expect, it } from 'vitest';
import { HeadTailBuffer } from './head-tail-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything within budget', () => {
    const buffer = new HeadTailBuffer(8);
    buffer.push(Buffer.from('abc'));
    buffer.push(Buffer.from('def'));
    expect(buffer.bytes().toString()).toBe('abcdef');
    expect(buffer.omittedBytes).toBe(0);
  });

  it('keeps the head and the latest tail, counting the dropped middle', () => {
    const buffer = new HeadTailBuffer(8);
    for (const part of ['abcd', 'efgh', 'ijkl', 'mn']) buffer.push(Buffer.from(part));
    expect(buffer.bytes().toString()).toBe('abcdklmn');
    expect(buffer.size).toBe(8);
    expect(buffer.omittedBytes).toBe(6);
    expect(buffer.drain().toString()).toBe('abcdklmn');
    expect(buffer.size).toBe(0);
  });
});
