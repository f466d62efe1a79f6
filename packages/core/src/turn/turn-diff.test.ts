import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TurnDiffTracker } from './turn-diff.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const CWD = '/work/repo';
const at = (name: string) => path.join(CWD, name);

describe('TurnDiffTracker', () => {
  it('renders the turn so far as git does: a new file, an update, a deletion, in path order', () => {
    const tracker = new TurnDiffTracker();
    tracker.record('t1', CWD, [{ path: at('b.txt'), before: bytes('one\ntwo\n'), after: bytes('one\nTWO\n') }]);
    const diff = tracker.record('t1', CWD, [
      { path: at('a.txt'), before: null, after: bytes('hello\n') },
      { path: at('c.txt'), before: bytes('gone\n'), after: null },
    ]);
    expect(diff).toBe(
      [
        'diff --git a/a.txt b/a.txt',
        'new file mode 100644',
        'index 0000000000000000000000000000000000000000..ce013625030ba8dba906f756967f9e9ca394464a',
        '--- /dev/null',
        '+++ b/a.txt',
        '@@ -0,0 +1 @@',
        '+hello',
        'diff --git a/b.txt b/b.txt',
        'index 814f4a422927b82f5f8a43f8fab6d3839e3983f2..879de50b9a967adae6ab5fe536d4ef6e0af21bb1',
        '--- a/b.txt',
        '+++ b/b.txt',
        '@@ -1,2 +1,2 @@',
        ' one',
        '-two',
        '+TWO',
        'diff --git a/c.txt b/c.txt',
        'deleted file mode 100644',
        'index 2f4e3a2b1c98bd4a36cd3e6e2c3d1e2f8a6f0b7a..0000000000000000000000000000000000000000',
        '--- a/c.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-gone',
        '',
      ].join('\n').replace('2f4e3a2b1c98bd4a36cd3e6e2c3d1e2f8a6f0b7a', gitBlob('gone\n')),
    );
  });

  it('diffs from the turn’s start: a second patch builds on the first, a restored file drops out, a new turn starts over', () => {
    const tracker = new TurnDiffTracker();
    tracker.record('t1', CWD, [{ path: at('a.txt'), before: bytes('1\n'), after: bytes('2\n') }]);
    expect(tracker.record('t1', CWD, [{ path: at('a.txt'), before: bytes('2\n'), after: bytes('3\n') }])).toContain('@@ -1 +1 @@\n-1\n+3\n');
    expect(tracker.record('t1', CWD, [{ path: at('a.txt'), before: bytes('3\n'), after: bytes('1\n') }])).toBe('');
    expect(tracker.record('t2', CWD, [{ path: at('a.txt'), before: bytes('1\n'), after: bytes('4\n') }])).toContain('-1\n+4\n');
  });

  it('names blobs as git hash-object does, and shows a path outside the cwd as it is', () => {
    const tracker = new TurnDiffTracker();
    const diff = tracker.record('t1', CWD, [{ path: '/elsewhere/x.txt', before: bytes('é\n'), after: bytes('è\n') }]);
    expect(diff).toContain(`diff --git a//elsewhere/x.txt b//elsewhere/x.txt\nindex ${gitBlob('é\n')}..${gitBlob('è\n')}\n`);
  });
});

/** The blob id git itself gives `text`. */
function gitBlob(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skein-blob-'));
  try {
    writeFileSync(path.join(dir, 'f'), text);
    return execFileSync('git', ['hash-object', path.join(dir, 'f')], { encoding: 'utf8' }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
