// `skein thread export` / `import` between the two stores (issue #44): a thread written to files is
// exported as its rollout, imported into PostgreSQL, and resumed from there by `skein exec resume`
// with its history whole; a broken or repeated import is refused and stores nothing.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, createTestDatabase, postgresSkipReason, sse, type TestDatabase } from '@skein/test-support';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';

describe.skipIf(postgresSkipReason() !== undefined)('skein thread export and import', () => {
  let database: TestDatabase;
  let scratch: ExecScratch;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    scratch = await execScratch('skein-thread-transfer-');
  });
  afterEach(async () => {
    await scratch.cleanup();
  });

  const usePostgres = () => scratch.writeConfig('[skein.thread_store]\nkind = "postgres"\nhost_id = "cli-test"\n');

  it('moves a thread from files into PostgreSQL, where exec resumes it with its history', async () => {
    scratch.server.expect([sse(assistantMessage('The answer is 42.'), completed()), sse(assistantMessage('Still 42.'), completed())]);
    const first = await scratch.skein(['exec', '--json', 'What is the answer?']);
    expect(first.code, first.stderr).toBe(0);
    const threadId = (jsonLines(first.stdout)[0] as { thread_id: string }).thread_id;

    const exported = path.join(scratch.scratch, 'thread.jsonl');
    const out = await scratch.skein(['thread', 'export', threadId, '-o', exported]);
    expect(out.code, out.stderr).toBe(0);
    const sessions = path.join(scratch.home, 'sessions');
    const file = readdirSync(sessions, { recursive: true, withFileTypes: true }).find((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))!;
    expect(readFileSync(exported, 'utf8')).toBe(readFileSync(path.join(file.parentPath, file.name), 'utf8'));

    usePostgres();
    const env = { SKEIN_DATABASE_URL: database.url };
    const imported = await scratch.skein(['thread', 'import', exported], { env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(`${threadId}\n`);
    const again = await scratch.skein(['thread', 'import', exported], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`thread ${threadId} is already in the database`));

    const resumed = await scratch.skein(['exec', 'resume', '--json', threadId, 'Say it again.'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(scratch.server.requests[1]!.messageTexts('user').slice(-2)).toEqual(['What is the answer?', 'Say it again.']);

    // The database's copy now has both turns; exported again, it is a rollout of both.
    const back = await scratch.skein(['thread', 'export', threadId], { env });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout.split('\n').filter((line) => line.includes('"task_complete"'))).toHaveLength(2);
  });

  it('refuses a damaged rollout, naming the line, and stores nothing', async () => {
    usePostgres();
    const env = { SKEIN_DATABASE_URL: database.url };
    const broken = path.join(scratch.scratch, 'broken.jsonl');
    const id = '019b0000-0000-7000-8000-00000000beef';
    writeFileSync(broken, `${JSON.stringify({ timestamp: '2026-12-01T00:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-12-01T00:00:00.000Z', cwd: '/w', originator: 'x', cli_version: '0' } })}\n{"type": \n`);
    const result = await scratch.skein(['thread', 'import', broken], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 2 is not JSON/);
    const exported = await scratch.skein(['thread', 'export', id], { env });
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(/no thread/);
  });

  it('will not start without the database URL it is told to read', async () => {
    usePostgres();
    const result = await scratch.skein(['thread', 'export', '019b0000-0000-7000-8000-000000000001']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\$SKEIN_DATABASE_URL, which is not set/);
  });
});
