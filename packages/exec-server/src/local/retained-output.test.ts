import { describe, expect, it } from 'vitest';
import { RetainedOutput } from './retained-output.js';

const chunk = (seq: number, text: string) => ({ seq, stream: 'stdout' as const, chunk: new TextEncoder().encode(text) });
const texts = (chunks: { chunk: Uint8Array }[]) => chunks.map((c) => new TextDecoder().decode(c.chunk));

describe('RetainedOutput', () => {
  it('drops the oldest chunks once the byte cap is passed', () => {
    const output = new RetainedOutput(6);
    output.push(chunk(1, 'abc'));
    output.push(chunk(2, 'def'));
    output.push(chunk(3, 'gh'));
    expect(texts(output.after(0, undefined).chunks)).toEqual(['def', 'gh']);
  });

  it('keeps only the newest bytes of a chunk larger than the cap', () => {
    const output = new RetainedOutput(4);
    output.push(chunk(1, 'abcdefgh'));
    expect(texts(output.after(0, undefined).chunks)).toEqual(['efgh']);
  });

  it('returns chunks after a sequence number, at least one, within maxBytes', () => {
    const output = new RetainedOutput(100);
    for (const [seq, text] of [[1, 'aa'], [2, 'bb'], [3, 'cc']] as const) output.push(chunk(seq, text));
    expect(texts(output.after(1, undefined).chunks)).toEqual(['bb', 'cc']);
    expect(output.after(0, 1)).toMatchObject({ exhausted: true });
    expect(texts(output.after(0, 1).chunks)).toEqual(['aa']);
    expect(texts(output.after(0, 3).chunks)).toEqual(['aa', 'bb']);
    expect(output.after(3, 10)).toEqual({ chunks: [], exhausted: false });
  });

  it('gives the tail of the output as text', () => {
    const output = new RetainedOutput(100);
    output.push(chunk(1, 'hello '));
    output.push(chunk(2, 'world'));
    expect(output.tail(5)).toBe('world');
    expect(output.tail(100)).toBe('hello world');
  });
});
