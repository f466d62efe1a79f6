// Rollouts the real Codex 0.171.0 wrote (scripts/record-codex-fixtures.mjs): Skein reads every line
// and reconstructs exactly the history Codex itself replayed into its last model request.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { loadThread, readRolloutFile, readRolloutTail } from '../src/index.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'codex');
const SCENARIOS = ['plain_reply', 'shell_call', 'apply_patch', 'resume', 'compaction', 'fork'] as const;

interface Replayed {
  readonly lastRequestInput: readonly ResponseItem[];
  readonly finalReply: string;
}

/** The model-visible part of an item: what Codex sends, without the fields it keeps only in the rollout. */
function visible(item: ResponseItem): Record<string, unknown> {
  const { internal_chat_message_metadata_passthrough: _passthrough, status: _status, ...rest } = item as Record<string, unknown>;
  const content = rest['content'];
  if (Array.isArray(content)) rest['content'] = content.map((part: Record<string, unknown>) => ({ type: part['type'], text: part['text'] }));
  return rest;
}

async function rolloutPaths(scenario: string): Promise<string[]> {
  return (await readdir(FIXTURES)).filter((name) => name.startsWith(`${scenario}.`) && name.endsWith('.rollout.jsonl')).sort().map((name) => path.join(FIXTURES, name));
}

async function idsToPaths(): Promise<Record<string, string>> {
  const map: Record<string, string> = {};
  for (const name of (await readdir(FIXTURES)).filter((file) => file.endsWith('.rollout.jsonl'))) {
    const header = JSON.parse((await readFile(path.join(FIXTURES, name), 'utf8')).split('\n')[0] ?? '{}') as { payload: { id: string } };
    map[header.payload.id] = path.join(FIXTURES, name);
  }
  return map;
}

describe('rollouts written by Codex 0.171.0', () => {
  it.each(SCENARIOS)('%s: every line parses with its schema', async (scenario) => {
    for (const file of await rolloutPaths(scenario)) {
      const read = await readRolloutFile(file, { strict: true });
      expect(read.problems).toEqual([]);
      expect(read.invalidLines).toEqual([]);
      expect(read.lines[0]?.line.type).toBe('session_meta');
      expect(new Set(read.lines.map((line) => line.line.type))).toContain('turn_context');
    }
  });

  it.each(SCENARIOS)('%s: the reconstructed history is what Codex replayed to the model', async (scenario) => {
    const paths = await idsToPaths();
    const files = await rolloutPaths(scenario);
    const newest = files.at(-1) ?? '';
    const replayed = JSON.parse(await readFile(path.join(FIXTURES, `${scenario}.replayed.json`), 'utf8')) as Replayed;
    const thread = await loadThread(newest, { resolveThreadPath: (id) => Promise.resolve(paths[id]) });
    expect(thread.problems).toEqual([]);
    const expected = [...replayed.lastRequestInput.map(visible)];
    expect(thread.history.slice(0, expected.length).map(visible)).toEqual(expected);
    // After the last request, the file holds the model's reply to it.
    const rest = thread.history.slice(expected.length);
    expect(rest.map((item) => [item.type, (item as { role?: string }).role, (item as { content?: { text?: string }[] }).content?.[0]?.text])).toEqual([
      ['message', 'assistant', replayed.finalReply],
    ]);
    expect(thread.turns.every((turn) => turn.status === 'completed')).toBe(true);
    expect(thread.lastTurnContext?.model).toBe('gpt-5.5');
  });

  it('resume: the second exec run appended to the same file, and both turns survive', async () => {
    const thread = await loadThread(path.join(FIXTURES, 'resume.rollout.jsonl'));
    expect(thread.turns.map((turn) => [turn.status, turn.userTurn])).toEqual([['completed', true], ['completed', true]]);
    expect(thread.meta.history_mode).toBe('paginated');
  });

  it('compaction: the history restarts from the replacement and opens window 1', async () => {
    const thread = await loadThread(path.join(FIXTURES, 'compaction.rollout.jsonl'));
    expect(thread.compactions).toBe(1);
    expect(thread.window?.windowNumber).toBe(1);
    expect(thread.window?.windowId).toMatch(/^[0-9a-f-]{36}$/);
    expect(thread.referenceTurnContext).toBeDefined();
    expect(thread.needsInitialContext).toBe(false);
  });

  it('fork: Codex references the parent (history_base) instead of copying it', async () => {
    const paths = await idsToPaths();
    const forkPath = path.join(FIXTURES, 'fork.2.rollout.jsonl');
    const alone = await loadThread(forkPath);
    expect(alone.problems.map((problem) => problem.kind)).toEqual(['history-base-unavailable']);
    const whole = await loadThread(forkPath, { resolveThreadPath: (id) => Promise.resolve(paths[id]) });
    expect(whole.meta.forked_from_id).toBe(whole.meta.history_base?.thread_id);
    expect(whole.turns).toHaveLength(3);
    expect(whole.history.length).toBeGreaterThan(alone.history.length);
  });

  it.each(SCENARIOS)('%s: the tail reader agrees with the full read', async (scenario) => {
    const file = (await rolloutPaths(scenario))[0] ?? '';
    const [tail, thread] = await Promise.all([readRolloutTail(file), loadThread(file)]);
    expect(tail.meta).toEqual(thread.meta);
    expect(tail.lastTurnContext).toEqual(thread.lastTurnContext);
    expect(tail.lastOrdinal).toBe(thread.lastOrdinal);
  });
});
