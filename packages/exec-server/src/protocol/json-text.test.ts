import { describe, expect, it } from 'vitest';
import { VerbatimString, toJsonText } from './json-text.js';

describe('toJsonText', () => {
  it('writes verbatim strings as JSON strings and everything else as JSON.stringify does', () => {
    const value = { id: 1, result: { chunk: new VerbatimString('aGVsbG8='), eof: false, note: 'a "quoted" \u0000 text' }, list: [new VerbatimString('Zm9v')] };
    const text = toJsonText(value);
    expect(JSON.parse(text)).toEqual({ id: 1, result: { chunk: 'aGVsbG8=', eof: false, note: 'a "quoted" \u0000 text' }, list: ['Zm9v'] });
    expect(toJsonText({ plain: 'x' })).toBe(JSON.stringify({ plain: 'x' }));
  });

  it('splices long verbatim strings in, several in one message', () => {
    const long = 'QUJD'.repeat(10_000);
    const other = 'WFla'.repeat(8_000);
    const text = toJsonText({ id: 2, result: { chunk: new VerbatimString(long), more: [new VerbatimString(other), new VerbatimString('YQ==')] } });
    expect(JSON.parse(text)).toEqual({ id: 2, result: { chunk: long, more: [other, 'YQ=='] } });
    // Outside toJsonText a verbatim string still serializes as its text.
    expect(JSON.stringify({ chunk: new VerbatimString(long) })).toBe(JSON.stringify({ chunk: long }));
  });
});
