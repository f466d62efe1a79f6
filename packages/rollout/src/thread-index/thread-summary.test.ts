import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asLines, environmentContext, item, sessionMeta, temporaryHome, turnContext, userMessage, uuidV7, writeJsonl } from '../../test/support/builders.js';
import { MAX_TITLE_CHARS, summarizeRolloutFile } from './thread-summary.js';

const ID = uuidV7(1);
let home: Awaited<ReturnType<typeof temporaryHome>>;
let file: string;
beforeEach(async () => {
  home = await temporaryHome();
  file = path.join(home.home, 'rollout.jsonl');
});
afterEach(() => home.dispose());

describe('summarizeRolloutFile', () => {
  it('takes the header fields and the first user message as the title', async () => {
    await writeJsonl(file, asLines([
      { type: 'session_meta', payload: sessionMeta(ID, { forked_from_id: uuidV7(5), source: { subagent: { thread_spawn: { parent_thread_id: uuidV7(6) } } } }) },
      item(environmentContext('/workspace')),
      turnContext('t1', '/workspace', 'gpt-5.5'),
      item(userMessage('Fix the flaky test')),
      turnContext('t2', '/workspace', 'gpt-6.2-sol'),
      item(userMessage('and this')),
    ]));
    expect(await summarizeRolloutFile(file, false)).toMatchObject({
      id: ID,
      path: file,
      cwd: '/workspace',
      createdAt: '2026-11-30T10:00:00.000Z',
      title: 'Fix the flaky test',
      modelProvider: 'mock',
      // The first turn's model: the scan stops at the first user message.
      model: 'gpt-5.5',
      source: 'subagent',
      archived: false,
      parentThreadId: uuidV7(6),
      sessionId: ID,
      forkedFromId: uuidV7(5),
    });
  });

  it('reads the title from an item_completed user message or a legacy user_message event', async () => {
    await writeJsonl(file, asLines([
      { type: 'session_meta', payload: sessionMeta(ID) },
      { type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage', content: [{ type: 'text', text: 'from the item' }] } } },
    ]));
    expect((await summarizeRolloutFile(file, true)).title).toBe('from the item');
    await writeJsonl(file, asLines([{ type: 'session_meta', payload: sessionMeta(ID) }, { type: 'event_msg', payload: { type: 'user_message', message: 'x'.repeat(MAX_TITLE_CHARS + 5) } }]));
    expect((await summarizeRolloutFile(file, true)).title).toHaveLength(MAX_TITLE_CHARS);
  });

  it('has no title before the first turn and refuses a file without a header', async () => {
    await writeJsonl(file, asLines([{ type: 'session_meta', payload: sessionMeta(ID) }]));
    expect(await summarizeRolloutFile(file, false)).toMatchObject({ title: null, model: null });
    await writeJsonl(file, asLines([item(userMessage('no header'))]));
    await expect(summarizeRolloutFile(file, false)).rejects.toMatchObject({ code: 'MissingSessionMeta' });
  });
});
