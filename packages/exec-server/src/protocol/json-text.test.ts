import { describe, expect, it } from 'vitest';
import { VerbatimString, toJsonText } from './json-text.js';

describe('toJsonText', () => {
  it('writes verbatim strings as JSON strings and everything else as JSON.stringify does', () => {
    const value = { id: 1, result: { chunk: new VerbatimString('aGVsbG8='), eof: false, note: 'a "quoted" \u0000 text' }, list: [new VerbatimString('Zm9v')] };
    const text = toJsonText(value);
    expect(JSON.parse(text)).toEqual({ id: 1, result: { chunk: 'aGVsbG8=', eof: false, note: 'a "quoted" \u0000 text' }, list: ['Zm9v'] });
    expect(toJsonText({ plain: 'x' })).toBe(JSON.stringify({ plain: 'x' }));
  });
});
