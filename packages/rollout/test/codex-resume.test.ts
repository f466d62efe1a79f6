// Codex reads Skein's rollouts: a thread written by Skein's writer is resumed by the real
// `codex exec resume` (Codex 0.171.0, from the @openai/codex devDependency) against the mock model,
// and the request Codex sends carries the history Skein reconstructs from the same file.
import type { ResponseItem } from '@skein/protocol';
import { assistantMessage, completed, resolveCodexBinary, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexMockConfig } from '../scripts/codex-mock-config.mjs';
import { FileThreadStore, capabilityRootRecord, loadThread, type RolloutItem } from '../src/index.js';
import { assistantMessage as assistantItem, extensionState, functionCall, functionCallOutput, item, rolledBack, taskComplete, taskStarted, turnContext, userMessage } from './support/builders.js';

const codex = resolveCodexBinary(import.meta.url);
const SKIP = codex.missing === undefined ? '' : ` (skipped: ${codex.missing})`;
const BASE_INSTRUCTIONS = 'Skein base instructions for the compatibility test.';
// Codex refuses to create its helper binaries under TMPDIR, so its home lives in the package.
const HOMES = path.join(import.meta.dirname, '..', '.test-homes');

let root: string;
let home: string;
let workspace: string;
let server: MockResponsesServer;
let store: FileThreadStore;
beforeEach(async () => {
  root = path.join(HOMES, randomUUID());
  home = path.join(root, 'codex-home');
  workspace = path.join(root, 'workspace');
  await mkdir(home, { recursive: true });
  await mkdir(workspace, { recursive: true });
  server = await startMockResponsesServer({ responses: [sse(assistantMessage('Resumed answer.', { phase: 'final_answer' }), completed())] });
  await writeFile(path.join(home, 'config.toml'), codexMockConfig(server.url));
  store = await FileThreadStore.open({ home });
});
afterEach(async () => {
  store.close();
  // Closing verifies the mock model: no unexpected request, no unused response.
  try {
    await server.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

/** What the model sees of an item: no rollout-only bookkeeping, content as type and text. */
function visible(entry: ResponseItem): Record<string, unknown> {
  const { internal_chat_message_metadata_passthrough: _p, metadata: _m, status: _s, ...rest } = entry as Record<string, unknown>;
  const content = rest['content'];
  if (Array.isArray(content)) rest['content'] = content.map((part: Record<string, unknown>) => ({ type: part['type'], text: part['text'] }));
  return rest;
}

/** The capability roots Skein records for the thread, in the form Codex writes them. */
const capabilityRoots = () => [capabilityRootRecord({ id: 'skein-root', location: { type: 'environment', environmentId: 'local', path: workspace } })];

async function writeThread(): Promise<string> {
  const writer = await store.createThread({
    meta: {
      cwd: workspace,
      originator: 'skein',
      cli_version: '0.0.0',
      source: 'exec',
      model_provider: 'mock',
      base_instructions: { text: BASE_INSTRUCTIONS },
      selected_capability_roots: capabilityRoots(),
      skein_extra: { kept: true },
    },
  });
  const turn = (id: string, ...items: RolloutItem[]): RolloutItem[] => [taskStarted(id), turnContext(id, workspace), ...items, taskComplete(id)];
  // Extension state set before any turn (a start hook), in turns, deleted, and in a rolled-back turn.
  await writer.append(extensionState('memo', 'started', true), extensionState('memo', 'scratch', { big: [1, 2, 3] }));
  await writer.append(
    ...turn(
      't1',
      item({ ...userMessage('Remember the word PINEAPPLE.', 'msg_01900000-0000-7000-8000-000000000001'), metadata: { turn_id: 't1' } }),
      item({ ...functionCall('call_1'), id: 'fc_01900000-0000-7000-8000-000000000002' }),
      item({ ...functionCallOutput('call_1', 'hi\n'), id: 'fco_01900000-0000-7000-8000-000000000003' }),
      { type: 'event_msg', payload: { type: 'item_completed', turn_id: 't1', item: { type: 'AgentMessage', id: 'x', content: [] } } },
      item(assistantItem('Noted: PINEAPPLE.', 'msg_01900000-0000-7000-8000-000000000004')),
      { type: 'skein_future_line', payload: { anything: [1, 2, 3] } },
      extensionState('memo', 'word', 'PINEAPPLE'),
      extensionState('memo', 'scratch'),
    ),
  );
  await writer.append(
    ...turn('t2', item(userMessage('This turn is rolled back.')), extensionState('memo', 'word', 'MANGO'), item(assistantItem('You will not see this.'))),
    rolledBack(1),
  );
  await writer.append(
    taskStarted('t3'),
    {
      type: 'compacted',
      payload: {
        message: 'SUMMARY: the user asked to remember PINEAPPLE.',
        replacement_history: [userMessage('Remember the word PINEAPPLE.'), { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'SUMMARY: the user asked to remember PINEAPPLE.' }] }],
        window_number: 1,
        window_id: '01900000-0000-7000-8000-0000000000aa',
        first_window_id: '01900000-0000-7000-8000-0000000000a9',
        previous_window_id: '01900000-0000-7000-8000-0000000000a9',
      },
    },
    turnContext('t3', workspace),
    item(userMessage('What was the word?')),
    item(assistantItem('PINEAPPLE.')),
    taskComplete('t3'),
  );
  await writer.close();
  return writer.threadId;
}

function runCodex(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex.binary ?? 'codex', args, {
      cwd: workspace,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: home, MOCK_API_KEY: 'mock', TERM: 'dumb' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('codex exec resume on a rollout Skein wrote', () => {
  it.skipIf(codex.missing !== undefined)(`sends the model the history Skein reconstructs, then appends a turn Skein reads back${SKIP}`, async () => {
    const id = await writeThread();
    const before = await store.loadThread(id);
    expect(before.problems).toEqual([]);
    const state = [
      { extensionId: 'memo', key: 'started', value: true },
      { extensionId: 'memo', key: 'word', value: 'PINEAPPLE' },
    ];
    expect(before.extensionState).toEqual(state);

    const result = await runCodex(['exec', 'resume', '--json', '--skip-git-repo-check', id, 'Next question.']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`"thread_id":"${id}"`);
    // Codex read the capability roots from Skein's header: it offers the skills tools only with roots selected.
    expect(server.requests[0]?.toolNames({ qualified: true })).toEqual(expect.arrayContaining(['skills.list', 'skills.read']));
    server.verify();

    const input = server.requests[0]?.inputItems() ?? [];
    expect(input[0]).toMatchObject({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: BASE_INSTRUCTIONS }] });
    // Compaction applied, the rolled-back turn gone, ids kept: exactly Skein's reconstruction.
    expect(input.slice(1, 1 + before.history.length).map(visible)).toEqual(before.history.map(visible));
    expect(before.history.map((entry) => (entry as { content?: { text?: string }[] }).content?.[0]?.text)).toEqual([
      'Remember the word PINEAPPLE.',
      'SUMMARY: the user asked to remember PINEAPPLE.',
      'What was the word?',
      'PINEAPPLE.',
    ]);
    expect(server.requests[0]?.messageTexts('user').at(-1)).toBe('Next question.');

    // Codex appended its turn to Skein's file; Skein reads the whole file back.
    const after = await loadThread(before.path ?? expect.fail("a file thread has a path"));
    expect(after.problems).toEqual([]);
    // Codex kept Skein's lines and header: the extension state and the capability roots are still there.
    expect(after.extensionState).toEqual(state);
    expect(after.meta.selected_capability_roots).toEqual(capabilityRoots());
    expect(after.turns.map((turn) => turn.status)).toEqual(['completed', 'completed', 'completed']);
    expect(after.history.slice(0, before.history.length)).toEqual(before.history);
    const tail = after.history.slice(-2).map((entry) => (entry as { content?: { text?: string }[] }).content?.[0]?.text);
    expect(tail).toEqual(['Next question.', 'Resumed answer.']);
    expect(after.lastOrdinal).toBeGreaterThan(before.lastOrdinal ?? 0);
  });

  it.skipIf(codex.missing !== undefined)(`resumes a fork Skein copied, with only the history up to the fork point${SKIP}`, async () => {
    const id = await writeThread();
    const fork = await store.forkThread(id, { upTo: { turnId: 't1' } });
    const forked = await store.loadThread(fork.id);
    expect(forked.meta.forked_from_id).toBe(id);
    expect(forked.meta.selected_capability_roots).toEqual(capabilityRoots());
    expect(forked.extensionState).toEqual([
      { extensionId: 'memo', key: 'started', value: true },
      { extensionId: 'memo', key: 'word', value: 'PINEAPPLE' },
    ]);

    const result = await runCodex(['exec', 'resume', '--json', '--skip-git-repo-check', fork.id, 'Next question.']);
    expect(result.code, result.stderr).toBe(0);
    server.verify();
    const input = server.requests[0]?.inputItems() ?? [];
    expect(input.slice(1, 1 + forked.history.length).map(visible)).toEqual(forked.history.map(visible));
    expect(forked.history.map((entry) => entry.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
  });
});
