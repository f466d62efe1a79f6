// Codex's own terminal UI against `skein app-server` (issue #35): `/review` → "Review uncommitted
// changes" in a real git repository. The TUI calls `review/start`; the model receives the working
// tree's diff and answers with findings; the screen shows the review between Codex's start and
// finish banners, as it does against `codex app-server`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { CODEX_SKIP, codex, KEYS, useTuiScenario } from './support/codex-tui.js';

const scenario = useTuiScenario();

/** A repository with one commit and an uncommitted change to its one file. */
function repositoryWithChange(workspace: string, home: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
    });
  mkdirSync(workspace, { recursive: true });
  git('init', '-q');
  const file = path.join(workspace, 'count.js');
  writeFileSync(file, 'for (let i = 0; i < n; i++) {}\n');
  git('add', '.');
  git('commit', '-q', '-m', 'Count things');
  writeFileSync(file, 'for (let i = 0; i < n - 1; i++) {}\n');
}

describe('Codex 0.171.0 terminal UI against skein app-server', () => {
  it.skipIf(codex.missing !== undefined)(`reviews the uncommitted changes with /review${CODEX_SKIP}`, { timeout: 90_000 }, async () => {
    const { model, root, workspace } = scenario();
    repositoryWithChange(workspace, root);
    const review = JSON.stringify({
      findings: [{ title: '[P1] Off by one', body: 'The loop stops one short.', confidence_score: 0.8, priority: 1, code_location: { absolute_file_path: '/repo/count.js', line_range: { start: 1, end: 1 } } }],
      overall_correctness: 'patch is incorrect',
      overall_explanation: 'One bug.',
      overall_confidence_score: 0.7,
    });
    // The review turn and the TUI's title thread ask at the same time, in either order: both get the review.
    model.expect([sse(assistantMessage(review), completed()), sse(assistantMessage(review), completed())]);
    const tui = await scenario().start();
    tui.type('/review');
    await tui.waitFor('› /review');
    tui.type(KEYS.enter);
    await tui.waitFor('Select a review preset');
    await tui.pressUntil(KEYS.down, '› 2. Review uncommitted changes');
    tui.type(KEYS.enter);

    // The finish banner (exitedReviewMode) is drawn before the review itself (the agentMessage
    // that follows it), so wait for the review's last line too.
    const shown = await tui.waitUntil((screen) => screen.includes('<< Code review finished >>') && screen.includes('The loop stops one short.'), 'the finished review');
    expect(shown).toContain('>> Code review started: current changes <<');
    expect(shown).toContain('One bug.');
    expect(shown.indexOf('<< Code review finished >>')).toBeLessThan(shown.indexOf('One bug.'));
    // A short path: a long one would wrap on the 120-column screen.
    expect(shown).toContain('[P1] Off by one — /repo/count.js:1-1');
    expect(shown).toContain('The loop stops one short.');
    expect(shown).not.toContain('■');

    await tui.waitUntil(() => model.requests.length === 2, 'the title thread’s request');
    const asked = model.requests.map((request) => JSON.stringify(request.body?.input));
    const reviewed = asked.filter((input) => input.includes('diff --git'));
    expect(reviewed).toHaveLength(1);
    expect(reviewed[0]).toContain('+for (let i = 0; i < n - 1; i++) {}');
  });
});
