import { describe, expect, it } from 'vitest';
import { seekSequence } from './seek-sequence.js';

describe('seekSequence', () => {
  const lines = ['alpha', 'beta  ', '  gamma', 'delta', 'beta'];

  it('finds an exact match at or after the start', () => {
    expect(seekSequence(lines, ['delta', 'beta'], 0, false)).toBe(3);
    expect(seekSequence(lines, ['alpha'], 1, false)).toBeUndefined();
  });

  it('prefers an exact match anywhere over a looser one earlier', () => {
    expect(seekSequence(lines, ['beta'], 0, false)).toBe(4);
  });

  it('falls back to ignoring trailing, then surrounding, white space', () => {
    expect(seekSequence(lines, ['beta', '  gamma'], 0, false)).toBe(1);
    expect(seekSequence(lines, ['beta', 'gamma  '], 0, false)).toBe(1);
  });

  it('matches typographic dashes, quotes and spaces against ASCII', () => {
    const file = ['x = \u201Chi\u201D \u2014 it\u2019s\u00A0ok'];
    expect(seekSequence(file, ['x = "hi" - it\'s ok'], 0, false)).toBe(0);
    expect(seekSequence(['x = "hi"'], ['x = \u201Chi\u201D'], 0, false)).toBe(0);
  });

  it('looks at the end of the file first for an End of File change', () => {
    const file = ['end', 'x', 'end'];
    expect(seekSequence(file, ['end'], 0, true)).toBe(2);
    expect(seekSequence(file, ['end'], 0, false)).toBe(0);
  });

  it('matches an empty pattern at the start and never a pattern longer than the file', () => {
    expect(seekSequence(lines, [], 3, false)).toBe(3);
    expect(seekSequence(['a'], ['a', 'b'], 0, false)).toBeUndefined();
  });
});
