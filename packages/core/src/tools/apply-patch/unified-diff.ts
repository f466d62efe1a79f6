// A file change as the unified-diff hunks clients show (`@@ -2 +2,2 @@` with one line of context,
// as Codex records updates), computed with jsdiff.
import { structuredPatch } from 'diff';

/** The hunks turning `before` into `after` with `context` lines around each change, without file headers. */
export function unifiedDiff(before: string, after: string, context = 1): string {
  const { hunks } = structuredPatch('', '', before, after, '', '', { context });
  return hunks
    .map((hunk) => `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n${hunk.lines.map((line) => `${line}\n`).join('')}`)
    .join('');
}

/** `start,count` as unified diffs write it: the count left out when it is one, an empty side starting one line earlier. */
function range(start: number, count: number): string {
  if (count === 1) return String(start);
  return `${count === 0 ? start - 1 : start},${count}`;
}
