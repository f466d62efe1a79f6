// A thread kept in PostgreSQL, exported, is a rollout the real Codex resumes: `codex exec resume`
// (Codex 0.171.0, the @openai/codex devDependency) against the mock model sends the history the
// store holds, and the file it appends to reads back through the file store.
import type { ResponseItem } from '@skein/protocol';
import { FileThreadStore, liveRolloutPath } from '@skein/rollout';
import { assistantMessage, completed, createTestDatabase, postgresSkipReason, resolveCodexBinary, sse, startMockResponsesServer, type MockResponsesServer, type TestDatabase } from '@skein/test-support';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresThreadStore } from '../src/index.js';
import { userTurn } from './support/rollout-items.js';

const codex = resolveCodexBinary(import.meta.url);
const skipReason = postgresSkipReason() ?? codex.missing;
// Codex refuses to create its helper binaries under TMPDIR, so its home lives in the package.
const HOMES = path.join(import.meta.dirname, '..', '.test-homes');

describe.skipIf(skipReason !== undefined)(`an exported PostgreSQL thread${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`, () => {
  let database: TestDatabase;
  let store: PostgresThreadStore;
  let model: MockResponsesServer;
  let root: string;

  beforeEach(async () => {
    database = await createTestDatabase();
    store = await PostgresThreadStore.open({ url: database.url, hostId: 'exporter', gitInfo: () => Promise.resolve(undefined) });
    model = await startMockResponsesServer({ responses: [sse(assistantMessage('Still PINEAPPLE.', { phase: 'final_answer' }), completed())] });
    root = path.join(HOMES, randomUUID());
  });
  afterEach(async () => {
    await store.close();
    try {
      await model.close();
    } finally {
      await rm(root, { recursive: true, force: true });
      await database.drop();
    }
  });

  it('resumes in `codex exec resume`, which sends the model the history the database held', async () => {
    const home = path.join(root, 'codex-home');
    const workspace = path.join(root, 'workspace');
    await mkdir(workspace, { recursive: true });
    const writer = await store.createThread({ meta: { cwd: workspace, originator: 'skein', cli_version: '0.0.0', source: 'exec', model_provider: 'mock' } });
    await writer.append(...userTurn('t1', 'Remember the word PINEAPPLE.', 'Noted: PINEAPPLE.'));
    await writer.close();

    const lines: string[] = [];
    await store.exportRollout(writer.threadId, (line) => {
      lines.push(line);
    });
    const file = liveRolloutPath(home, writer.threadId, new Date(writer.meta.timestamp));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${lines.join('\n')}\n`);
    await writeFile(
      path.join(home, 'config.toml'),
      ['model_provider = "mock"', 'model = "gpt-5.5"', 'check_for_update_on_startup = false', '[analytics]', 'enabled = false', '[feedback]', 'enabled = false', '[model_providers.mock]', 'name = "Mock"', `base_url = "${model.url}"`, 'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', 'supports_websockets = false', ''].join('\n'),
    );

    const result = await run(codex.binary ?? 'codex', ['exec', 'resume', '--json', '--skip-git-repo-check', writer.threadId, 'What was the word?'], { cwd: workspace, home });
    expect(result.code, result.stderr).toBe(0);
    const input = model.requests[0]?.body?.input as ResponseItem[];
    const texts = input
      .filter((entry) => entry.type === 'message' && ['user', 'assistant'].includes((entry as { role: string }).role))
      .map((entry) => ((entry as { content: { text?: string }[] }).content.map((part) => part.text ?? '').join('')))
      .filter((value) => !value.startsWith('<'));
    expect(texts).toEqual(['Remember the word PINEAPPLE.', 'Noted: PINEAPPLE.', 'What was the word?']);

    // Codex appended its turn to the exported file; the file store reads the whole thread back.
    const files = await FileThreadStore.open({ home });
    try {
      expect((await files.loadThread(writer.threadId)).turns.map((turn) => turn.turnId)).toEqual(['t1', expect.any(String)]);
    } finally {
      files.close();
    }
  });
});

function run(binary: string, args: readonly string[], where: { readonly cwd: string; readonly home: string }): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd: where.cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: where.home, CODEX_HOME: where.home, MOCK_API_KEY: 'mock', TERM: 'dumb' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
