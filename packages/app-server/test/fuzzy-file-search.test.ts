// `fuzzyFileSearch` and its sessions over real directories: a git work tree made by `git init`
// (its `.gitignore` honoured), a plain directory (only `.ignore` honoured), hidden files, accents,
// symlinks, the 50-match bound and ranking, and the errors Codex 0.171.0 answers with. Every
// message is schema-checked by the test client.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, type InProcessServer, type TestHome } from './support/app-server-harness.js';

interface Match {
  readonly root: string;
  readonly path: string;
  readonly match_type: 'file' | 'directory';
  readonly file_name: string;
  readonly score: number;
  readonly indices: readonly number[] | null;
}
interface Updated {
  readonly sessionId: string;
  readonly query: string;
  readonly files: readonly Match[];
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  }
}

const pathsOf = (files: readonly Match[]) => files.map((file) => file.path);
/** The matches without their scores (fzf's numbers, not Codex's), after checking each is a positive integer. */
function unscored(files: readonly Match[]): Omit<Match, 'score'>[] {
  for (const file of files) expect(Number.isInteger(file.score) && file.score > 0, `${file.path} scores ${file.score}`).toBe(true);
  return files.map(({ score: _score, ...rest }) => rest);
}

/**
 * A place for a directory outside every git work tree: a temp directory with no `.git` in any
 * ancestor. `/var/tmp` comes before the usual temp directory because `/tmp` is a writable root of
 * every sandboxed command the other test files run meanwhile, and bubblewrap's read-only mask for a
 * missing `/tmp/.git` leaves an empty `/tmp/.git` on the host while such a command runs — enough
 * to make everything below `/tmp` a work tree for a moment (some machines also have a stray one).
 */
function outsideGitBase(): string | undefined {
  const inWorkTree = (dir: string): boolean => existsSync(path.join(dir, '.git')) || (path.dirname(dir) !== dir && inWorkTree(path.dirname(dir)));
  return ['/var/tmp', '/dev/shm', os.tmpdir(), os.homedir()].find((dir) => existsSync(dir) && !inWorkTree(dir));
}
const OUTSIDE_GIT = outsideGitBase();

describe('fuzzyFileSearch', () => {
  let home: TestHome;
  let server: InProcessServer;
  let client: AppServerTestClient;
  let repo: string;
  let plain: string;

  beforeEach(async () => {
    home = makeHome();
    repo = path.join(home.workspace, 'repo');
    plain = mkdtempSync(path.join(OUTSIDE_GIT ?? home.workspace, 'skein-fuzzy-plain-'));
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo]);
    writeTree(repo, {
      '.gitignore': 'ignored.txt\nbuild/\n',
      '.ignore': 'skipme.txt\n',
      'ignored.txt': 'x',
      'skipme.txt': 'x',
      'build/out.txt': 'x',
      '.hidden/secret.txt': 'x',
      'src/main.rs': 'x',
      'src/café.txt': 'x',
      'src/Cafe_Upper.TXT': 'x',
      'docs/guide/intro.md': 'x',
      'sub/.gitignore': 'local.txt\n',
      'sub/local.txt': 'x',
      'sub/kept.txt': 'x',
    });
    writeTree(plain, { '.gitignore': 'ignored.txt\n', '.ignore': 'skipme.txt\n', 'ignored.txt': 'x', 'skipme.txt': 'x', 'keep.txt': 'x', '.hidden.txt': 'x' });
    server = await startInProcess(home);
    client = await server.connect('stdio');
    await client.initialize();
  });
  afterEach(async () => {
    await client.close();
    await server.close();
    home.cleanup();
    rmSync(plain, { recursive: true, force: true });
  });

  const search = async (query: string, roots: readonly string[]) => ((await client.request('fuzzyFileSearch', { query, roots })) as { files: Match[] }).files;

  it('honours .gitignore in a git work tree and .ignore everywhere, and finds hidden files', async () => {
    expect(unscored(await search('txt', [repo]))).toEqual([
      { root: repo, path: '.hidden/secret.txt', match_type: 'file', file_name: 'secret.txt', indices: [15, 16, 17] },
      { root: repo, path: 'src/Cafe_Upper.TXT', match_type: 'file', file_name: 'Cafe_Upper.TXT', indices: [15, 16, 17] },
      { root: repo, path: 'src/café.txt', match_type: 'file', file_name: 'café.txt', indices: [9, 10, 11] },
      { root: repo, path: 'sub/kept.txt', match_type: 'file', file_name: 'kept.txt', indices: [9, 10, 11] },
    ]);
    // A root below the work tree's top still gets the top's `.gitignore` (and its own).
    expect(pathsOf(await search('txt', [path.join(repo, 'sub')]))).toEqual(['kept.txt']);
    expect(pathsOf(await search('out', [repo]))).not.toContain('build/out.txt');
    // The `.git` directory is searched like any other hidden directory.
    expect(pathsOf(await search('HEAD', [repo]))).toContain('.git/HEAD');
  });

  it.skipIf(OUTSIDE_GIT === undefined)('outside a git work tree ignores .gitignore but honours .ignore (needs a temp directory outside every work tree)', async () => {
    expect(pathsOf(await search('txt', [plain]))).toEqual(['.hidden.txt', 'ignored.txt', 'keep.txt']);
    // An empty `.git` directory is enough to make a work tree.
    mkdirSync(path.join(plain, '.git'));
    expect(pathsOf(await search('txt', [plain]))).toEqual(['.hidden.txt', 'keep.txt']);
  });

  it('matches case- and accent-insensitively, but an accented query wants its accent', async () => {
    expect(pathsOf(await search('CAFE', [repo]))).toEqual(['src/Cafe_Upper.TXT', 'src/café.txt']);
    expect(await search('CAFÉ', [repo])).toEqual([expect.objectContaining({ path: 'src/café.txt', indices: [4, 5, 6, 7] })]);
  });

  it('reports directories and ranks name matches above path matches, exact names first', async () => {
    writeTree(path.join(home.workspace, 't'), { 'abc/xyz.txt': 'x', 'xyzdir/q.txt': 'x', 'xyz/inner.md': 'x' });
    const root = path.join(home.workspace, 't');
    const files = await search('xyz', [root]);
    expect(files.map((file) => [file.path, file.match_type])).toEqual([
      ['xyz', 'directory'],
      ['abc/xyz.txt', 'file'],
      ['xyz/inner.md', 'file'],
      ['xyzdir', 'directory'],
      ['xyzdir/q.txt', 'file'],
    ]);
    const scores = files.map((file) => file.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(files[0]?.file_name).toBe('xyz');
    expect(files[2]?.indices).toEqual([0, 1, 2]);
  });

  it('ranks a file by its name match and highlights the name, unless the query uses search syntax', async () => {
    const root = path.join(home.workspace, 'names');
    // `.git/hooks` matches `git` better by path, but `.gitignore` matches it by name.
    writeTree(root, { 'gitx/pre-merge-commit.sample': 'x', 'zgitignore': 'x', 'abc2/abc.txt': 'x', 'abc/other.md': 'x' });
    expect((await search('git', [root])).map((file) => [file.path, file.indices])).toEqual([
      ['zgitignore', [1, 2, 3]],
      ['gitx/pre-merge-commit.sample', [12, 19, 20]],
      ['gitx', [0, 1, 2]],
    ]);
    expect((await search('abc', [root]))[0]).toMatchObject({ path: 'abc', match_type: 'directory' });
    expect((await search('abc', [root]))[1]).toMatchObject({ path: 'abc2/abc.txt', indices: [5, 6, 7] });
    // With search syntax the query is not a name pattern: paths rank by their own match.
    expect((await search('^abc', [root])).map((file) => file.path)).toEqual(['abc', 'abc/other.md', 'abc2', 'abc2/abc.txt']);
  });

  it('answers at most 50 matches, by score and then path', async () => {
    const many = path.join(home.workspace, 'many');
    writeTree(many, Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`file${i + 1}.txt`, 'x'])));
    const files = await search('file', [many]);
    expect(files).toHaveLength(50);
    const ranked = [...files].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
    expect(pathsOf(files)).toEqual(pathsOf(ranked));
    expect(files.every((file) => file.root === many && file.match_type === 'file')).toBe(true);
  });

  it('follows symlinked directories but not links back to an ancestor', async () => {
    const root = path.join(home.workspace, 'links');
    writeTree(root, { 'inner/leaf.txt': 'x' });
    symlinkSync(plain, path.join(root, 'outside'));
    symlinkSync('..', path.join(root, 'inner', 'loop'));
    expect(pathsOf(await search('keep', [root]))).toEqual(['outside/keep.txt']);
    expect(await search('loop', [root])).toEqual([]);
    expect(pathsOf(await search('leaf', [root]))).toEqual(['inner/leaf.txt']);
  });

  it('searches several roots and echoes each root as given', async () => {
    const files = await search('txt', [`${repo}/`, repo, plain, repo]);
    expect(pathsOf(files.filter((file) => file.root === `${repo}/`))).toEqual(['.hidden/secret.txt', 'src/Cafe_Upper.TXT', 'src/café.txt', 'sub/kept.txt']);
    expect(files.filter((file) => file.root === plain).length).toBeGreaterThanOrEqual(2);
    expect(files.filter((file) => file.root === repo)).toHaveLength(4);
  });

  it('matches nothing for an empty query, a missing root or no roots, and names a missing field', async () => {
    expect(await search('', [repo])).toEqual([]);
    expect(await search('txt', [path.join(home.workspace, 'nope')])).toEqual([]);
    expect(await search('txt', [])).toEqual([]);
    expect(await client.requestReply('fuzzyFileSearch', { query: 'x' })).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `roots`' } });
    expect(await client.requestReply('fuzzyFileSearch', { roots: [repo] })).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `query`' } });
  });

  it('answers both of two searches sharing a cancellation token', async () => {
    const big = path.join(home.workspace, 'big');
    writeTree(big, Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`d${i % 40}/f${i}.txt`, 'x'])));
    const first = client.request('fuzzyFileSearch', { query: 'd1f1', roots: [big], cancellationToken: 'tok' });
    const second = client.request('fuzzyFileSearch', { query: 'd2f2', roots: [big], cancellationToken: 'tok' });
    const [, latest] = (await Promise.all([first, second])) as { files: Match[] }[];
    expect(latest?.files).toEqual(await search('d2f2', [big]));
  });
});

describe('fuzzyFileSearch sessions', () => {
  let home: TestHome;
  let server: InProcessServer;
  let client: AppServerTestClient;
  let root: string;

  beforeEach(async () => {
    home = makeHome();
    root = path.join(home.workspace, 'tree');
    writeTree(root, { 'abc/xyz.txt': 'x', 'xyzdir/q.txt': 'x', 'notes.md': 'x' });
    server = await startInProcess(home);
    client = await server.connect('stdio');
    await client.initialize();
  });
  afterEach(async () => {
    await client.close();
    await server.close();
    home.cleanup();
  });

  const updatedFor = (sessionId: string, query: string) => (params: unknown) => (params as Updated).sessionId === sessionId && (params as Updated).query === query;

  /** Sends an update and waits for its `sessionUpdated`, checking `sessionCompleted` follows it. */
  async function update(sessionId: string, query: string): Promise<Updated> {
    const before = client.notifications.length;
    const isNew = (params: unknown) => client.notifications.findIndex((n) => n.params === params) >= before;
    expect(await client.request('fuzzyFileSearch/sessionUpdate', { sessionId, query })).toEqual({});
    const updated = (await client.waitFor('fuzzyFileSearch/sessionUpdated', (params) => updatedFor(sessionId, query)(params) && isNew(params))) as Updated;
    const at = client.notifications.findIndex((n) => n.method === 'fuzzyFileSearch/sessionUpdated' && n.params === updated);
    await client.waitFor('fuzzyFileSearch/sessionCompleted', (params) => (params as { sessionId: string }).sessionId === sessionId && client.notifications.length > at + 1);
    expect(client.notifications[at + 1]).toMatchObject({ method: 'fuzzyFileSearch/sessionCompleted', params: { sessionId } });
    return updated;
  }

  it('answers each update with sessionUpdated then sessionCompleted, from the walk it keeps', async () => {
    expect(await client.request('fuzzyFileSearch/sessionStart', { sessionId: 's1', roots: [root] })).toEqual({});
    const first = await update('s1', 'xyz');
    expect(first.files.map((file) => file.path)).toEqual(['abc/xyz.txt', 'xyzdir', 'xyzdir/q.txt']);
    expect(unscored(first.files)[0]).toEqual({ root, path: 'abc/xyz.txt', match_type: 'file', file_name: 'xyz.txt', indices: [4, 5, 6] });

    // The session keeps its walk: a file removed since is still found, one added is not.
    rmSync(path.join(root, 'notes.md'));
    writeTree(root, { 'later.md': 'x' });
    expect((await update('s1', 'md')).files.map((file) => file.path)).toEqual(['notes.md']);
    expect((await update('s1', '')).files).toEqual([]);

    // Starting the same id again walks afresh.
    expect(await client.request('fuzzyFileSearch/sessionStart', { sessionId: 's1', roots: [root] })).toEqual({});
    expect((await update('s1', 'md')).files.map((file) => file.path)).toEqual(['later.md']);

    expect(await client.request('fuzzyFileSearch/sessionStop', { sessionId: 's1' })).toEqual({});
    expect(await client.requestReply('fuzzyFileSearch/sessionUpdate', { sessionId: 's1', query: 'x' })).toEqual({
      error: { code: -32600, message: 'fuzzy file search session not found: s1' },
    });
  });

  it('reports the empty query when its walk ends without an update', async () => {
    await client.request('fuzzyFileSearch/sessionStart', { sessionId: 'quiet', roots: [root] });
    expect(await client.waitFor('fuzzyFileSearch/sessionUpdated', updatedFor('quiet', ''))).toEqual({ sessionId: 'quiet', query: '', files: [] });
    await client.waitFor('fuzzyFileSearch/sessionCompleted', (params) => (params as { sessionId: string }).sessionId === 'quiet');
  });

  it('answers Codex errors: empty id, no roots, unknown session, missing fields; unknown stop is fine', async () => {
    expect(await client.requestReply('fuzzyFileSearch/sessionStart', { sessionId: '', roots: [root] })).toEqual({ error: { code: -32600, message: 'sessionId must not be empty' } });
    expect(await client.requestReply('fuzzyFileSearch/sessionStart', { sessionId: 's2', roots: [] })).toEqual({
      error: { code: -32603, message: 'failed to start fuzzy file search session: at least one search directory is required' },
    });
    expect(await client.requestReply('fuzzyFileSearch/sessionUpdate', { sessionId: 'nope', query: 'a' })).toEqual({
      error: { code: -32600, message: 'fuzzy file search session not found: nope' },
    });
    expect(await client.requestReply('fuzzyFileSearch/sessionStart', { sessionId: 's4' })).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `roots`' } });
    expect(await client.requestReply('fuzzyFileSearch/sessionStop', {})).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `sessionId`' } });
    expect(await client.request('fuzzyFileSearch/sessionStop', { sessionId: 'nope' })).toEqual({});
  });

  it('keeps sessions to clients with experimentalApi; the one-shot search needs none', async () => {
    const plainClient = await server.connect('stdio');
    try {
      await plainClient.initialize({ capabilities: {} });
      for (const [method, params] of [
        ['fuzzyFileSearch/sessionStart', { sessionId: 's', roots: [root] }],
        ['fuzzyFileSearch/sessionUpdate', { sessionId: 's', query: 'x' }],
        ['fuzzyFileSearch/sessionStop', { sessionId: 's' }],
      ] as const) {
        expect(await plainClient.requestReply(method, params)).toEqual({ error: { code: -32600, message: `${method} requires experimentalApi capability` } });
      }
      expect(((await plainClient.request('fuzzyFileSearch', { query: 'notes', roots: [root] })) as { files: Match[] }).files.map((file) => file.path)).toEqual(['notes.md']);
    } finally {
      await plainClient.close();
    }
  });
});
