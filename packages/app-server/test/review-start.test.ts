// `review/start` over the app-server, against real git repositories: the diff gathered on the
// thread's environment for each target (as the model receives it), Codex's notification sequence and
// review items (validated against Codex's schema by the test client), and the refusals.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_REVIEW_DIFF_BYTES } from '@skein/core';
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let server: InProcessServer | undefined;
let client: AppServerTestClient | undefined;

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

/** Runs git in `cwd` with a fixed identity and clock. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { ...home.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' },
    encoding: 'utf8',
  });
}

function write(relative: string, text: string): void {
  const target = path.join(home.workspace, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
}

/** A repository in the workspace with one commit of `f.txt` (three lines). */
function repository(): void {
  git(home.workspace, 'init', '-q');
  write('f.txt', 'one\ntwo\nthree\n');
  git(home.workspace, 'add', '.');
  git(home.workspace, 'commit', '-q', '-m', 'init');
}

/** A server, a client, and a loaded thread in the workspace. */
async function openThread(): Promise<{ readonly client: AppServerTestClient; readonly threadId: string }> {
  server = await startInProcess(home, { threads: threadsOn(home) });
  client = await server.connect('stdio');
  await client.initialize();
  const announced = client.waitFor('thread/started');
  const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never' })) as { thread: { id: string } };
  await announced;
  return { client, threadId: started.thread.id };
}

const FINDING = {
  title: '[P1] Off by one',
  body: 'The loop skips the last line.',
  confidence_score: 0.8,
  priority: 1,
  code_location: { absolute_file_path: '/repo/f.txt', line_range: { start: 2, end: 2 } },
};
const reviewJson = (findings: readonly unknown[], explanation: string) =>
  JSON.stringify({ findings, overall_correctness: findings.length === 0 ? 'patch is correct' : 'patch is incorrect', overall_explanation: explanation, overall_confidence_score: 0.7 });

interface Notification {
  readonly method: string;
  readonly params: Record<string, unknown>;
}
interface Review {
  readonly answer: { turn: Record<string, unknown> & { id: string }; reviewThreadId: string };
  /** The thread's notifications from the answer to turn/completed. */
  readonly notifications: readonly Notification[];
  readonly request: CapturedRequest;
  /** The text the model received as the review's user message. */
  readonly prompt: string;
}

/** Starts a review, waits for its turn to complete, and returns what the client and the model saw. */
async function review(connected: AppServerTestClient, threadId: string, target: Record<string, unknown>): Promise<Review> {
  const from = connected.notifications.length;
  const answer = (await connected.request('review/start', { threadId, target })) as Review['answer'];
  await connected.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);
  const notifications = (connected.notifications.slice(from) as Notification[]).filter((notification) => notification.params['threadId'] === threadId);
  const request = model.requests.at(-1)!;
  return { answer, notifications, request, prompt: request.messageTexts('user').at(-1)! };
}

/** A reply's error as `<code> <message>` (empty when it succeeded). */
const refusal = (reply: unknown): string => {
  const error = (reply as { error?: { code: number; message: string } }).error;
  return error === undefined ? '' : `${error.code} ${error.message}`;
};

const items = (notifications: readonly Notification[], method: string) => notifications.filter((notification) => notification.method === method).map((notification) => notification.params['item'] as Record<string, unknown>);

describe('review/start', () => {
  it("reviews the uncommitted changes: staged, unstaged and untracked against HEAD, with Codex's items and notifications", async () => {
    repository();
    write('f.txt', 'one\ntwo\nthree\nfour (unstaged)\n');
    write('staged.txt', 'staged line\n');
    git(home.workspace, 'add', 'staged.txt');
    write('new/untracked.txt', 'untracked line\n');
    model.expect([sse(assistantMessage(reviewJson([FINDING], 'One bug.')), completed())]);
    const { client: connected, threadId } = await openThread();

    const { answer, notifications, request, prompt } = await review(connected, threadId, { type: 'uncommittedChanges' });

    // The answer: the review's turn, named by its hint, as Codex answers.
    expect(answer).toEqual({
      turn: {
        id: answer.turn.id,
        rootTurnId: null,
        items: [{ type: 'userMessage', id: answer.turn.id, clientId: null, content: [{ type: 'text', text: 'current changes', text_elements: [] }], startedAtMs: null, completedAtMs: null }],
        itemsView: 'notLoaded',
        status: 'inProgress',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      },
      reviewThreadId: threadId,
    });

    // What the model received: our instructions, the three kinds of change, and the answer's schema.
    expect(prompt).toMatch(/^Review the uncommitted changes/);
    expect(prompt).toContain('+four (unstaged)');
    expect(prompt).toContain('+++ b/staged.txt\n@@ -0,0 +1 @@\n+staged line');
    expect(prompt).toContain('+++ b/new/untracked.txt\n@@ -0,0 +1 @@\n+untracked line');
    expect(prompt).toContain(`Paths are relative to the repository at ${home.workspace}.`);
    expect(prompt).not.toContain('stops at');
    const format = (request.body as { text?: { format?: { type?: string; schema?: { required?: string[] } } } }).text?.format;
    expect(format).toMatchObject({ type: 'json_schema', schema: { required: ['findings', 'overall_correctness', 'overall_explanation', 'overall_confidence_score'] } });

    // What the client saw, in Codex's order; the raw JSON answer never shows.
    expect(notifications.map((notification) => `${notification.method}${notification.method.startsWith('item/') ? `:${String((notification.params['item'] as { type: string }).type)}` : ''}`).filter((name) => !name.startsWith('thread/tokenUsage') && !name.startsWith('account/'))).toEqual([
      'item/started:enteredReviewMode',
      'item/completed:enteredReviewMode',
      'thread/status/changed',
      'turn/started',
      'item/started:userMessage',
      'item/completed:userMessage',
      'item/started:exitedReviewMode',
      'item/completed:exitedReviewMode',
      'item/started:agentMessage',
      'item/completed:agentMessage',
      'thread/readState/changed',
      'thread/status/changed',
      'turn/completed',
    ]);
    for (const notification of notifications.filter((entry) => entry.method.startsWith('item/'))) expect(notification.params['turnId']).toBe(answer.turn.id);
    const rendered = 'One bug.\n\nReview comment:\n\n- [P1] Off by one — /repo/f.txt:2-2\n  The loop skips the last line.';
    const completedItems = items(notifications, 'item/completed');
    expect(completedItems[0]).toMatchObject({ type: 'enteredReviewMode', review: 'current changes' });
    expect(completedItems[1]).toMatchObject({ type: 'userMessage', content: [{ type: 'text', text: 'Review the uncommitted changes (staged, unstaged and untracked files) and report prioritized findings.' }] });
    expect(completedItems[2]).toMatchObject({ type: 'exitedReviewMode', review: rendered });
    expect(completedItems[3]).toMatchObject({ type: 'agentMessage', text: rendered });
    expect(typeof completedItems[2]!['completedAtMs']).toBe('number');
    const turn = notifications.at(-1)!.params['turn'] as Record<string, unknown>;
    expect(turn).toMatchObject({ id: answer.turn.id, status: 'completed', itemsView: 'summary', items: [completedItems[3]] });
    expect(notifications.some((notification) => notification.method === 'item/agentMessage/delta')).toBe(false);
  });

  it('reviews a branch as the working tree against its merge base, leaving out what only the base branch has', async () => {
    repository();
    git(home.workspace, 'checkout', '-q', '-b', 'feature');
    write('feature.txt', 'feature work\n');
    git(home.workspace, 'add', '.');
    git(home.workspace, 'commit', '-q', '-m', 'feature');
    git(home.workspace, 'checkout', '-q', 'main');
    write('main-only.txt', 'landed on main later\n');
    git(home.workspace, 'add', '.');
    git(home.workspace, 'commit', '-q', '-m', 'main moves on');
    git(home.workspace, 'checkout', '-q', 'feature');
    const mergeBase = git(home.workspace, 'merge-base', 'HEAD', 'main').trim();
    model.expect([sse(assistantMessage(reviewJson([], 'Looks right.')), completed())]);
    const { client: connected, threadId } = await openThread();

    const { answer, notifications, prompt } = await review(connected, threadId, { type: 'baseBranch', branch: 'main' });

    expect((answer.turn.items as { content: { text: string }[] }[])[0]!.content[0]!.text).toBe("changes against 'main'");
    expect(prompt).toContain(`The working tree against ${mergeBase}, the merge base of HEAD and 'main':`);
    expect(prompt).toContain('+++ b/feature.txt\n@@ -0,0 +1 @@\n+feature work');
    expect(prompt).not.toContain('main-only.txt');
    expect(items(notifications, 'item/completed')[0]).toMatchObject({ type: 'enteredReviewMode', review: "changes against 'main'" });
    expect(items(notifications, 'item/completed').at(-1)).toMatchObject({ type: 'agentMessage', text: 'Looks right.' });
  });

  it("reviews one commit's patch, named by its short sha and the client's title", async () => {
    repository();
    write('f.txt', 'one\n2\nthree\n');
    git(home.workspace, 'commit', '-q', '-am', 'Use digits');
    const sha = git(home.workspace, 'rev-parse', 'HEAD').trim();
    write('later.txt', 'a later commit\n');
    git(home.workspace, 'add', '.');
    git(home.workspace, 'commit', '-q', '-m', 'Later');
    model.expect([sse(assistantMessage(reviewJson([FINDING, { ...FINDING, title: '[P3] Nit', body: 'Line one.\nLine two.', code_location: { absolute_file_path: '/repo/g.txt', line_range: { start: 1, end: 3 } } }], 'Two issues.')), completed())]);
    const { client: connected, threadId } = await openThread();

    const { answer, notifications, prompt } = await review(connected, threadId, { type: 'commit', sha, title: 'Use digits' });

    const hint = `commit ${sha.slice(0, 7)}: Use digits`;
    expect((answer.turn.items as { content: { text: string }[] }[])[0]!.content[0]!.text).toBe(hint);
    expect(prompt).toMatch(new RegExp(`^Review commit ${sha.slice(0, 7)} \\("Use digits"\\)`));
    expect(prompt).toContain(`The patch of commit ${sha}:`);
    expect(prompt).toContain('-two\n+2');
    expect(prompt).not.toContain('later.txt');
    expect(items(notifications, 'item/completed')[0]).toMatchObject({ type: 'enteredReviewMode', review: hint });
    expect(items(notifications, 'item/completed').at(-1)).toMatchObject({
      type: 'agentMessage',
      text: 'Two issues.\n\nFull review comments:\n\n- [P1] Off by one — /repo/f.txt:2-2\n  The loop skips the last line.\n\n- [P3] Nit — /repo/g.txt:1-3\n  Line one.\n  Line two.',
    });
  });

  it('reviews by custom instructions without a diff, and shows an answer that is not JSON as written', async () => {
    write('README.md', 'no repository here\n');
    model.expect([sse(assistantMessage('The README reads fine.'), completed())]);
    const { client: connected, threadId } = await openThread();

    const { answer, notifications, prompt } = await review(connected, threadId, { type: 'custom', instructions: 'Check the README only' });

    expect((answer.turn.items as { content: { text: string }[] }[])[0]!.content[0]!.text).toBe('Check the README only');
    expect(prompt).toMatch(/^Check the README only\n\nHow to review:/);
    expect(prompt).not.toContain('```diff');
    const completedItems = items(notifications, 'item/completed');
    expect(completedItems.map((item) => item['type'])).toEqual(['enteredReviewMode', 'userMessage', 'exitedReviewMode', 'agentMessage']);
    expect(completedItems[0]).toMatchObject({ review: 'Check the README only' });
    expect(completedItems[2]).toMatchObject({ review: 'The README reads fine.' });
    expect(completedItems[3]).toMatchObject({ text: 'The README reads fine.' });
  });

  it('cuts a diff past MAX_REVIEW_DIFF_BYTES at a line and tells the model to read the rest itself', async () => {
    repository();
    const line = `${'x'.repeat(99)}\n`;
    write('big.txt', line.repeat(Math.ceil((MAX_REVIEW_DIFF_BYTES * 1.5) / line.length)));
    write('after.txt', 'an untracked file after the cut\n');
    git(home.workspace, 'add', 'big.txt');
    model.expect([sse(assistantMessage(reviewJson([], 'Partial look.')), completed())]);
    const { client: connected, threadId } = await openThread();

    const { prompt } = await review(connected, threadId, { type: 'uncommittedChanges' });

    const diff = prompt.slice(prompt.indexOf('```diff\n') + '```diff\n'.length, prompt.lastIndexOf('\n```'));
    expect(Buffer.byteLength(diff)).toBeLessThanOrEqual(MAX_REVIEW_DIFF_BYTES);
    expect(Buffer.byteLength(diff)).toBeGreaterThan(MAX_REVIEW_DIFF_BYTES - line.length * 2);
    expect(diff.endsWith(`+${'x'.repeat(99)}`)).toBe(true);
    expect(prompt).toContain(`The diff above stops at ${MAX_REVIEW_DIFF_BYTES / 1024} KiB, before its end. Read the rest yourself (\`git diff HEAD, and git ls-files --others --exclude-standard for new files\`) before you conclude.`);
    expect(prompt).toContain('New files the diff does not show: after.txt.');
  });

  it('refuses a review with nothing to review before any turn starts (Codex starts one)', async () => {
    repository();
    const { client: connected, threadId } = await openThread();
    const from = connected.notifications.length;

    expect(await connected.requestReply('review/start', { threadId, target: { type: 'uncommittedChanges' } })).toMatchObject({
      error: { code: -32600, message: 'nothing to review: the working tree has no changes against HEAD' },
    });
    git(home.workspace, 'branch', 'same');
    expect(refusal(await connected.requestReply('review/start', { threadId, target: { type: 'baseBranch', branch: 'same' } }))).toMatch(/^-32600 nothing to review: no changes against 'same' \(merge base [0-9a-f]{7}\)$/);
    git(home.workspace, 'commit', '-q', '--allow-empty', '-m', 'empty');
    expect(refusal(await connected.requestReply('review/start', { threadId, target: { type: 'commit', sha: 'HEAD' } }))).toMatch(/^-32600 nothing to review: commit [0-9a-f]{7} changes no files$/);
    expect(connected.notifications.slice(from).map((notification) => notification.method)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it("refuses an unknown branch or commit with git's reason, and a cwd outside a git work tree", async () => {
    const { client: connected, threadId } = await openThread();
    expect(await connected.requestReply('review/start', { threadId, target: { type: 'uncommittedChanges' } })).toEqual({
      error: { code: -32600, message: `cannot review: ${home.workspace} is not inside a git work tree` },
    });
    repository();
    expect(await connected.requestReply('review/start', { threadId, target: { type: 'baseBranch', branch: 'nope' } })).toEqual({
      error: { code: -32600, message: "cannot review against 'nope': Not a valid object name nope" },
    });
    expect(await connected.requestReply('review/start', { threadId, target: { type: 'commit', sha: 'deadbeef' } })).toEqual({
      error: { code: -32600, message: "cannot review commit deadbeef: bad revision 'deadbeef'" },
    });
    // A sha that looks like an option is a revision, never an option of git's.
    expect(refusal(await connected.requestReply('review/start', { threadId, target: { type: 'commit', sha: '--output=/tmp/x' } }))).toMatch(/^-32600 cannot review commit --output=\/tmp\/x: /);
    expect(model.requests).toHaveLength(0);
  });

  it("refuses bad params in Codex's words", async () => {
    const { client: connected, threadId } = await openThread();
    const refused = async (params: unknown) => ((await connected.requestReply('review/start', params)) as { error?: unknown }).error;
    expect(await refused({ threadId, target: { type: 'baseBranch', branch: ' ' } })).toEqual({ code: -32600, message: 'branch must not be empty' });
    expect(await refused({ threadId, target: { type: 'commit', sha: '' } })).toEqual({ code: -32600, message: 'sha must not be empty' });
    expect(await refused({ threadId, target: { type: 'custom', instructions: '  ' } })).toEqual({ code: -32600, message: 'instructions must not be empty' });
    expect(await refused({ threadId, target: { type: 'bogus' } })).toEqual({
      code: -32600,
      message: 'Invalid request: unknown variant `bogus`, expected one of `uncommittedChanges`, `baseBranch`, `commit`, `custom`',
    });
    expect(await refused({ threadId, target: { type: 'baseBranch' } })).toEqual({ code: -32600, message: 'Invalid request: missing field `branch` at target.branch' });
    expect(await refused({ threadId })).toEqual({ code: -32600, message: 'Invalid request: missing field `target`' });
    expect(await refused({ threadId, target: { type: 'uncommittedChanges' }, delivery: 'detached' })).toEqual({ code: -32600, message: 'Invalid request: unknown variant `detached`, expected `inline`' });
    const unknown = '00000000-0000-7000-8000-000000000000';
    expect(await refused({ threadId: unknown, target: { type: 'baseBranch', branch: '' } })).toEqual({ code: -32600, message: `thread not found: ${unknown}` });
    expect(model.requests).toHaveLength(0);
  });
});
