// `skein exec review`, as `codex exec review`: the built binary in a real git repository against the
// mock Responses server — the changes the model receives for each target, the rendered review on
// stdout, in the `--json` stream and in the -o file, and the refusals (exit codes, nothing left behind).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, sse, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';

let fixture: ExecScratch;
let home: string;
let repo: string;
let server: MockResponsesServer;

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

beforeEach(async () => {
  fixture = await execScratch('skein-exec-review-');
  ({ home, repo, server } = fixture);
  // The scratch's placeholder `.git` becomes a real repository with one commit.
  rmSync(path.join(repo, '.git'), { recursive: true });
  git('init', '-q');
  writeFileSync(path.join(repo, 'count.js'), 'for (let i = 0; i < n; i++) {}\n');
  git('add', '.');
  git('commit', '-q', '-m', 'Count things');
});
afterEach(() => fixture.cleanup());

const skein = (args: string[], stdin?: string) => fixture.skein(args, stdin === undefined ? {} : { stdin });

/** The model's structured answer: one finding and a verdict. */
const ANSWER = JSON.stringify({
  findings: [{ title: '[P1] Off by one', body: 'The loop stops one short.', confidence_score: 0.8, priority: 1, code_location: { absolute_file_path: '/repo/count.js', line_range: { start: 1, end: 1 } } }],
  overall_correctness: 'patch is incorrect',
  overall_explanation: 'One bug.',
  overall_confidence_score: 0.7,
});
const RENDERED = 'One bug.\n\nReview comment:\n\n- [P1] Off by one — /repo/count.js:1-1\n  The loop stops one short.';

/** The text of the last user message the model received in request `index`. */
function lastUserText(index: number): string {
  const body = server.requests[index]?.json as { input: { role?: string; content?: { text?: string }[] }[] };
  const user = body.input.filter((item) => item.role === 'user').at(-1);
  return user?.content?.map((part) => part.text ?? '').join('') ?? '';
}

function rolloutFiles(): string[] {
  const sessions = path.join(home, 'sessions');
  return existsSync(sessions) ? readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl')) : [];
}

describe('skein exec review', () => {
  it('reviews the uncommitted changes: the diff in the prompt, the JSON answer asked for, the rendered review in the --json stream and the -o file', async () => {
    writeFileSync(path.join(repo, 'count.js'), 'for (let i = 0; i < n - 1; i++) {}\n');
    writeFileSync(path.join(repo, 'new.txt'), 'brand new\n');
    server.expect([sse(assistantMessage(ANSWER), completed())]);
    const last = path.join(fixture.scratch, 'review.txt');
    const { code, stdout, stderr } = await skein(['exec', 'review', '--uncommitted', '--json', '-o', last]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const prompt = lastUserText(0);
    expect(prompt).toContain('+for (let i = 0; i < n - 1; i++) {}');
    expect(prompt).toContain('+brand new');
    const body = server.requests[0]?.json as { text?: { format?: { type?: string } } };
    expect(body.text?.format?.type).toBe('json_schema');
    // As Codex's exec: one agent message with the review as text, not the model's JSON.
    expect(jsonLines(stdout).map((line) => line.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    expect(jsonLines(stdout)[2]).toEqual({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: RENDERED } });
    expect(readFileSync(last, 'utf8')).toBe(RENDERED);
  });

  it("reviews a commit for people: its hint as the user's line on stderr, the review alone on stdout", async () => {
    writeFileSync(path.join(repo, 'count.js'), 'for (let i = 0; i <= n; i++) {}\n');
    git('commit', '-q', '-am', 'Count to n');
    const sha = git('rev-parse', 'HEAD').trim();
    server.expect([sse(assistantMessage(ANSWER), completed())]);
    const { code, stdout, stderr } = await skein(['exec', 'review', '--commit', sha, '--title', 'Count to n']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${RENDERED}\n`);
    expect(stderr).toContain(`user\ncommit ${sha.slice(0, 7)}: Count to n\n`);
    expect(lastUserText(0)).toContain('+for (let i = 0; i <= n; i++) {}');
  });

  it('takes custom review instructions from stdin with `-`; a plain-text answer is the review', async () => {
    server.expect([sse(assistantMessage('Looks fine to me.'), completed())]);
    const { code, stdout } = await skein(['exec', 'review', '-'], 'Check the loop bounds.\n');
    expect(code).toBe(0);
    expect(stdout).toBe('Looks fine to me.\n');
    expect(lastUserText(0)).toMatch(/^Check the loop bounds\./);
  });

  it('refuses a clean tree, an unknown branch and a missing target with exit 1; conflicting flags with exit 2; no model request, no thread left', async () => {
    const clean = await skein(['exec', 'review', '--uncommitted']);
    expect(clean.code).toBe(1);
    expect(clean.stderr).toContain('error: nothing to review: the working tree has no changes against HEAD');
    const branch = await skein(['exec', 'review', '--base', 'nosuch', '--json']);
    expect(branch.code).toBe(1);
    expect(branch.stdout).toBe('');
    expect(branch.stderr).toContain("error: cannot review against 'nosuch'");
    const none = await skein(['exec', 'review']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error: Specify --uncommitted, --base, --commit, or provide custom review instructions');
    const both = await skein(['exec', 'review', '--uncommitted', 'and this']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("error: the argument '--uncommitted' cannot be used with '[PROMPT]'");
    const title = await skein(['exec', 'review', '--title', 'T']);
    expect(title.code).toBe(2);
    expect(title.stderr).toContain('--commit <SHA>');
    expect(server.requests).toHaveLength(0);
    expect(rolloutFiles()).toEqual([]);
  });
});
