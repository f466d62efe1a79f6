// What a review says: the hint clients show (`current changes`, Codex's wording of a target), the
// request its user message shows, and the prompt the model receives — our own review instructions
// with the gathered changes inline.
import type { ReviewTarget } from '@skein/protocol';
import { MAX_REVIEW_DIFF_BYTES, type ReviewChanges } from './review-diff.js';

/** How clients name the review (`enteredReviewMode.review`, the answer's user message), as Codex names it. */
export function reviewHint(target: ReviewTarget): string {
  switch (target.type) {
    case 'uncommittedChanges':
      return 'current changes';
    case 'baseBranch':
      return `changes against '${target.branch}'`;
    case 'commit': {
      const short = target.sha.slice(0, 7);
      const title = target.title?.trim() ?? '';
      return title === '' ? `commit ${short}` : `commit ${short}: ${title}`;
    }
    case 'custom':
      return target.instructions.trim();
  }
}

/** The one-line request the review turn's user message shows. */
export function reviewRequest(target: ReviewTarget, changes: ReviewChanges | undefined): string {
  switch (target.type) {
    case 'uncommittedChanges':
      return 'Review the uncommitted changes (staged, unstaged and untracked files) and report prioritized findings.';
    case 'baseBranch':
      return `Review this branch's changes against '${target.branch}' (since merge base ${changes?.base.slice(0, 7) ?? 'unknown'}) and report prioritized findings.`;
    case 'commit': {
      const title = target.title?.trim() || changes?.commit?.subject || '';
      const sha = (changes?.commit?.sha ?? target.sha).slice(0, 7);
      return title === '' ? `Review commit ${sha} and report prioritized findings.` : `Review commit ${sha} ("${title}") and report prioritized findings.`;
    }
    case 'custom':
      return target.instructions.trim();
  }
}

const INSTRUCTIONS = `How to review:
- Look for problems the author would want fixed before this lands: wrong behaviour, regressions, crashes, security holes, data loss, races, broken error handling, missed edge cases, clear performance traps. Skip style, formatting and naming preferences, and anything you cannot tie to a specific line.
- Judge what these changes introduce or make worse. Older problems are out of scope unless the change now depends on them.
- When the diff alone is not enough, read the surrounding code; read-only commands are fine. Do not edit files.
- One problem per finding: a short title that starts with its priority tag ([P0] must fix before anything else, [P1] fix soon, [P2] worth fixing, [P3] minor), a body of a few sentences saying what goes wrong and when, the absolute path of the file and the narrowest line range in its new version, your confidence from 0 to 1, and the priority as a number from 0 to 3.
- Then the verdict: "patch is correct" if nothing you found should block it, otherwise "patch is incorrect", a short explanation, and your confidence from 0 to 1.
- Answer with the JSON object the response format describes and nothing else. An empty list of findings is a good answer when the change is sound.`;

/** The text the model receives for the review: the request, the instructions, then the changes. */
export function reviewPrompt(target: ReviewTarget, changes: ReviewChanges | undefined): string {
  const sections = [reviewRequest(target, changes), INSTRUCTIONS];
  if (changes !== undefined) sections.push(changesSection(target, changes));
  return sections.join('\n\n');
}

function changesSection(target: ReviewTarget, changes: ReviewChanges): string {
  const { command, what } = describe(target, changes);
  const fence = fenceFor(changes.patch);
  const lines = [`${what} Paths are relative to the repository at ${changes.root}.`, '', `${fence}diff`, changes.patch.replace(/\n$/, ''), fence];
  if (changes.truncated) {
    lines.push('', `The diff above stops at ${MAX_REVIEW_DIFF_BYTES / 1024} KiB, before its end. Read the rest yourself (\`${command}\`) before you conclude.`);
  }
  if (changes.untrackedLeftOut.length > 0) lines.push('', `New files the diff does not show: ${changes.untrackedLeftOut.join(', ')}.`);
  return lines.join('\n');
}

/** The git command that shows the changes, and a sentence saying what they are. */
function describe(target: ReviewTarget, changes: ReviewChanges): { readonly command: string; readonly what: string } {
  switch (target.type) {
    case 'uncommittedChanges':
      return {
        command: changes.base === 'HEAD' ? 'git diff HEAD, and git ls-files --others --exclude-standard for new files' : 'git diff --cached, git diff, and git ls-files --others --exclude-standard for new files',
        what: `The changes against ${changes.base}, staged and unstaged, then each untracked file:`,
      };
    case 'baseBranch':
      return { command: `git diff ${changes.base}`, what: `The working tree against ${changes.base}, the merge base of HEAD and '${target.branch}':` };
    case 'commit':
      return { command: `git show ${changes.commit?.sha ?? target.sha}`, what: `The patch of commit ${changes.commit?.sha ?? target.sha}:` };
    case 'custom':
      return { command: 'git diff', what: 'The changes:' };
  }
}

/** A code fence longer than any run of backticks in `text`. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  return '`'.repeat(longest + 1);
}
