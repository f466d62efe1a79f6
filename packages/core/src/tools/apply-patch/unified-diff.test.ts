import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff.js';

describe('unifiedDiff', () => {
  it('writes Codex’s hunk form: one line of context, counts of one left out', () => {
    expect(unifiedDiff('alpha\nbeta\n', 'alpha\nbeta\ngamma\n')).toBe('@@ -2 +2,2 @@\n beta\n+gamma\n');
    expect(unifiedDiff('a\nb\nc\nd\ne\nf\n', 'a\nB\nc\nd\ne\nF\n')).toBe('@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -5,2 +5,2 @@\n e\n-f\n+F\n');
  });

  it('starts an empty side one line earlier, and is empty when nothing changed', () => {
    expect(unifiedDiff('', 'new\n')).toBe('@@ -0,0 +1 @@\n+new\n');
    expect(unifiedDiff('same\n', 'same\n')).toBe('');
  });
});
