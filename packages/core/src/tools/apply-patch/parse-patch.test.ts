import { describe, expect, it } from 'vitest';
import { parsePatch, PatchParseError, type PatchParseErrorCode } from './parse-patch.js';

const wrap = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

function parseError(text: string): PatchParseError {
  try {
    parsePatch(text);
  } catch (error) {
    if (error instanceof PatchParseError) return error;
    throw error;
  }
  throw new Error('expected the patch to be rejected');
}

describe('parsePatch', () => {
  it('parses an added file, one + line per line', () => {
    expect(parsePatch(wrap('*** Add File: hello.txt', '+Hello, world!', '+', '+  indented'))).toEqual({
      hunks: [{ kind: 'add', path: 'hello.txt', contents: 'Hello, world!\n\n  indented\n', line: 2 }],
    });
  });

  it('parses a deleted file', () => {
    expect(parsePatch(wrap('*** Delete File: old/gone.txt')).hunks).toEqual([{ kind: 'delete', path: 'old/gone.txt', line: 2 }]);
  });

  it('parses an update with a move, @@ context, context/removed/added lines and End of File', () => {
    const patch = parsePatch(
      wrap('*** Update File: src/a.py', '*** Move to: src/b.py', '@@ def f():', ' keep', '-    pass', '+    return 1', '@@', '-tail', '+TAIL', '*** End of File'),
    );
    expect(patch.hunks).toEqual([
      {
        kind: 'update',
        path: 'src/a.py',
        movePath: 'src/b.py',
        line: 2,
        chunks: [
          { context: 'def f():', oldLines: ['keep', '    pass'], newLines: ['keep', '    return 1'], endOfFile: false, line: 4 },
          { context: undefined, oldLines: ['tail'], newLines: ['TAIL'], endOfFile: true, line: 8 },
        ],
      },
    ]);
  });

  it('accepts a first change without @@ and reads a bare empty line as empty context', () => {
    const [hunk] = parsePatch(wrap('*** Update File: f', ' import foo', '', '+bar')).hunks;
    expect(hunk).toMatchObject({ chunks: [{ context: undefined, oldLines: ['import foo', ''], newLines: ['import foo', '', 'bar'] }] });
  });

  it('parses several hunks in order, with line numbers', () => {
    const patch = parsePatch(wrap('*** Add File: a', '+1', '*** Delete File: b', '*** Update File: c', '@@', '+x', '*** Add File: d', '+2'));
    expect(patch.hunks.map((hunk) => [hunk.kind, hunk.path, hunk.line])).toEqual([
      ['add', 'a', 2],
      ['delete', 'b', 4],
      ['update', 'c', 5],
      ['add', 'd', 8],
    ]);
  });

  it('accepts an empty patch (planning then reports that nothing changes)', () => {
    expect(parsePatch('*** Begin Patch\n*** End Patch')).toEqual({ hunks: [] });
  });

  it('is lenient like Codex: surrounding white space, padded markers, CRLF, blank lines between changes', () => {
    const text = '\n  *** Begin Patch  \r\n  *** Update File: a.txt  \r\n@@\r\n-x\r\n+y\r\n*** End of File\r\n\r\n   \r\n@@ ctx\r\n-z\r\n*** End Patch \r\n\n';
    expect(parsePatch(text).hunks).toEqual([
      {
        kind: 'update',
        path: 'a.txt',
        movePath: undefined,
        line: 2,
        chunks: [
          { context: undefined, oldLines: ['x'], newLines: ['y'], endOfFile: true, line: 3 },
          { context: 'ctx', oldLines: ['z'], newLines: [], endOfFile: false, line: 9 },
        ],
      },
    ]);
  });

  it('reads blank and white-space lines inside a change as context, as Codex does', () => {
    const [hunk] = parsePatch(wrap('*** Update File: f', '@@', '-x', '', '   ', '+y')).hunks;
    expect(hunk).toMatchObject({ chunks: [{ oldLines: ['x', '', '  '], newLines: ['', '  ', 'y'] }] });
  });

  it("unwraps a heredoc (<<'EOF' … EOF), counting lines from the heredoc's first line", () => {
    for (const opener of ['<<EOF', "<<'EOF'", '<<"EOF"']) {
      expect(parsePatch(`${opener}\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF\n`).hunks).toEqual([
        { kind: 'add', path: 'a', contents: 'x\n', line: 3 },
      ]);
    }
  });

  it('keeps text after the marker character verbatim, whatever it looks like', () => {
    const [hunk] = parsePatch(wrap('*** Update File: f', '@@ @@ ', '- *** End Patch', '+@@', '+*** x')).hunks;
    expect(hunk).toMatchObject({ chunks: [{ context: '@@ ', oldLines: [' *** End Patch'], newLines: ['@@', '*** x'] }] });
  });

  const rejected: [string, string, PatchParseErrorCode, number][] = [
    ['no begin marker', 'hello\n*** End Patch', 'MissingBeginPatch', 1],
    ['empty input', '  \n ', 'MissingBeginPatch', 1],
    ['no end marker', '*** Begin Patch\n*** Add File: a\n+x', 'MissingEndPatch', 3],
    ['only a begin marker', '*** Begin Patch', 'MissingEndPatch', 1],
    ['text after the end marker', '*** Begin Patch\n*** Delete File: a\n*** End Patch\ntrailing', 'MissingEndPatch', 4],
    ['an unknown header', wrap('*** Rename File: a'), 'InvalidHunkHeader', 2],
    ['a blank line between hunks', wrap('*** Add File: a', '+x', '', '*** Delete File: b'), 'InvalidHunkHeader', 4],
    ['a header without a path', wrap('*** Delete File: '), 'InvalidHunkHeader', 2],
    ['an update with no changes', wrap('*** Add File: a', '+x', '*** Update File: b'), 'EmptyUpdate', 4],
    ['an update with only a move', wrap('*** Update File: b', '*** Move to: c'), 'EmptyUpdate', 2],
    ['an @@ right after an @@', wrap('*** Update File: b', '@@', '-x', '@@', '+y', '@@', '@@ c'), 'UnexpectedLine', 8],
    ['a change line with a bad marker', wrap('*** Update File: b', '@@', 'x'), 'UnexpectedLine', 4],
    ['a first line that is no change', wrap('*** Update File: b', 'oops'), 'UnexpectedLine', 3],
    ['an @@ with nothing after it', wrap('*** Update File: b', '@@ f()'), 'EmptyChunk', 4],
    ['End of File right after @@', wrap('*** Update File: b', '@@', '*** End of File'), 'EmptyChunk', 4],
    ['a heredoc around a broken patch', "<<'EOF'\n*** Begin Patch\n*** Add File: a\nEOF", 'MissingEndPatch', 3],
  ];
  it.each(rejected)('rejects %s with a code and the offending line', (_name, text, code, line) => {
    const error = parseError(text);
    expect({ code: error.code, line: error.line }).toEqual({ code, line });
    expect(error.message.length).toBeGreaterThan(10);
  });

  it('names the header it did not understand', () => {
    expect(parseError(wrap('*** Rename File: a')).message).toContain("'*** Rename File: a' is not a valid hunk header");
  });
});
