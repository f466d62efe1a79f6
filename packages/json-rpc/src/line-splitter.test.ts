import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

function collect(maxLineBytes: number, chunks: string[]): string[] {
  const seen: string[] = [];
  const splitter = new LineSplitter(maxLineBytes, {
    line: (text) => seen.push(`line:${text}`),
    oversized: (head, bytes) => seen.push(`oversized:${head.slice(0, 5)}:${bytes}`),
  });
  for (const chunk of chunks) splitter.push(Buffer.from(chunk));
  return seen;
}

describe('LineSplitter', () => {
  it('joins lines split across chunks and skips blank lines and carriage returns', () => {
    expect(collect(100, ['{"a":', '1}\r\n\n{"b"', ':2}\n'])).toEqual(['line:{"a":1}', 'line:{"b":2}']);
  });

  it('reports an overlong line once, with its head and full length, and carries on', () => {
    expect(collect(8, ['0123456789', 'abcdef\nok\n'])).toEqual(['oversized:01234:16', 'line:ok']);
  });

  it('keeps a partial line until its newline arrives', () => {
    expect(collect(100, ['abc'])).toEqual([]);
  });
});
