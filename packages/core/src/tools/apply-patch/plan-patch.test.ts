import { PathUri } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { PatchApplyError, resolvePatchPath, updatedContents } from './plan-patch.js';
import type { UpdateChunk } from './patch.js';

const chunk = (oldLines: string[], newLines: string[], extra: Partial<UpdateChunk> = {}): UpdateChunk => ({
  context: undefined,
  oldLines,
  newLines,
  endOfFile: false,
  line: 3,
  ...extra,
});

function applyError(run: () => unknown): PatchApplyError {
  try {
    run();
  } catch (error) {
    if (error instanceof PatchApplyError) return error;
    throw error;
  }
  throw new Error('expected a PatchApplyError');
}

describe('updatedContents', () => {
  it('replaces the matched lines and keeps everything else', () => {
    expect(updatedContents('a\nb\nc\n', [chunk(['b'], ['B', 'B2'])], 'f')).toBe('a\nB\nB2\nc\n');
  });

  it('applies several changes in order, each searched after the previous one', () => {
    const text = 'x\ny\nx\ny\n';
    expect(updatedContents(text, [chunk(['x', 'y'], ['1']), chunk(['x', 'y'], ['2'])], 'f')).toBe('1\n2\n');
  });

  it('uses an @@ context line to choose among equal candidates', () => {
    const text = 'def a():\n    pass\ndef b():\n    pass\n';
    expect(updatedContents(text, [chunk(['    pass'], ['    return 2'], { context: 'def b():' })], 'f')).toBe(
      'def a():\n    pass\ndef b():\n    return 2\n',
    );
  });

  it('appends a pure addition at the end of the file, whatever its context', () => {
    expect(updatedContents('a\nb\n', [chunk([], ['c'], { context: 'a' })], 'f')).toBe('a\nb\nc\n');
    expect(updatedContents('a\n\n', [chunk([], ['c'])], 'f')).toBe('a\nc\n\n');
  });

  it('gives an unterminated last line its newline, as Codex does', () => {
    expect(updatedContents('a\nb', [chunk(['a'], ['A'])], 'f')).toBe('A\nb\n');
  });

  it('keeps CRLF lines CRLF and gives new lines the first line ending', () => {
    expect(updatedContents('a\r\nb\r\nc\n', [chunk(['b'], ['B', 'B2'])], 'f')).toBe('a\r\nB\r\nB2\r\nc\n');
  });

  it('keeps a byte order mark on the first line', () => {
    expect(updatedContents('\uFEFFa\nb\n', [chunk(['b'], ['c'])], 'f')).toBe('\uFEFFa\nc\n');
  });

  it('retries without a trailing empty old line that stands for the final newline', () => {
    expect(updatedContents('a\nb\n', [chunk(['b', ''], ['c', ''])], 'f')).toBe('a\nc\n');
  });

  it('matches an End of File change at the end', () => {
    expect(updatedContents('x\ny\nx\n', [chunk(['x'], ['z'], { endOfFile: true })], 'f')).toBe('x\ny\nz\n');
  });

  it('names the file, the change and the patch line when the old lines are not there', () => {
    const error = applyError(() => updatedContents('a\n', [chunk(['a'], ['b']), chunk(['zzz'], ['y'], { line: 9 })], 'src/x.ts'));
    expect({ code: error.code, path: error.path, hunk: error.hunk, line: error.line }).toEqual({ code: 'LinesNotFound', path: 'src/x.ts', hunk: 2, line: 9 });
    expect(error.message).toBe('could not find the lines of change 2 (patch line 9) in src/x.ts:\nzzz');
  });

  it('reports a context line it cannot find', () => {
    const error = applyError(() => updatedContents('a\n', [chunk(['a'], ['b'], { context: 'class Missing' })], 'f'));
    expect({ code: error.code, hunk: error.hunk }).toEqual({ code: 'ContextNotFound', hunk: 1 });
    expect(error.message).toContain("'class Missing'");
  });
});

describe('resolvePatchPath', () => {
  const cwd = PathUri.fromNativePath('/work/repo', 'posix');

  it('resolves relative paths against the cwd and keeps absolute ones', () => {
    expect(resolvePatchPath(cwd, 'src/a.ts').toString()).toBe('file:///work/repo/src/a.ts');
    expect(resolvePatchPath(cwd, '/etc/hosts').toString()).toBe('file:///etc/hosts');
    expect(resolvePatchPath(PathUri.fromNativePath('C:\\repo', 'windows'), 'C:\\other\\a.txt').toString()).toBe('file:///c:/other/a.txt');
  });

  it('follows .. like Codex (confinement is the sandbox’s job) but not above the root', () => {
    expect(resolvePatchPath(cwd, '../sibling/a').toString()).toBe('file:///work/sibling/a');
    expect(applyError(() => resolvePatchPath(cwd, '../../../x', 4))).toMatchObject({ code: 'InvalidPath', path: '../../../x', line: 4 });
    expect(applyError(() => resolvePatchPath(cwd, 'a\\b'))).toMatchObject({ code: 'InvalidPath' });
  });
});
