// An extension's context fragments end to end (issue 14): only declared fragments reach the model,
// and after a resume a user-role fragment recorded in the thread is never taken for a user turn.
import { ExtensionRegistryBuilder, defineContextFragment, defineExtension } from '@skein/extension-api';
import { FileThreadStore } from '@skein/rollout';
import { assistantMessage, completed, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';

const TODO_LIST = defineContextFragment({ kind: 'todo.list', role: 'user', open: '<todo_list>', close: '</todo_list>' });
const TODO_RULES = defineContextFragment({ kind: 'todo.rules', role: 'user', open: '<todo_rules>', close: '</todo_rules>' });

/** A to-do extension: its rules once per thread and the list every turn, both in the user role. */
function todoExtension() {
  let turns = 0;
  return defineExtension({
    id: 'todo',
    fragments: [TODO_LIST, TODO_RULES],
    context: {
      threadFragments: () => Promise.resolve([TODO_RULES.render('Tick items off as you finish them.')]),
      turnFragments: () => {
        turns += 1;
        return Promise.resolve([
          TODO_LIST.render(`- [ ] step ${turns}`),
          // Not declared: history could not recognise it, so core must not send it.
          { kind: 'todo.secret', role: 'user' as const, text: '<secret>hidden</secret>' },
          // Claims a declared kind but is not what that definition renders.
          { kind: 'todo.list', role: 'user' as const, text: 'not a list at all' },
        ]);
      },
    },
  });
}

let workspace: TestWorkspace;
let server: MockResponsesServer;

beforeEach(async () => {
  workspace = createTestWorkspace();
  server = await startMockResponsesServer();
});
afterEach(async () => {
  try {
    await server.close();
  } finally {
    await workspace.close();
  }
});

const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
type InputItem = { type: string; role?: string; content?: { text?: string }[] };
const inputOf = (index: number) => server.requests[index]!.body!.input as InputItem[];
const userTexts = (input: readonly InputItem[]) => input.filter((item) => item.type === 'message' && item.role === 'user').flatMap((item) => (item.content ?? []).map((part) => part.text ?? ''));

describe('extension context fragments', () => {
  it('sends only the fragments the extension declared, and warns about the others', async () => {
    server.expect([sse(assistantMessage('ok'), completed())]);
    const { thread, events } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', extensions: new ExtensionRegistryBuilder().add(todoExtension()).build() });
    await thread.runTurn(say('first'));
    await thread.close();

    const texts = userTexts(inputOf(0));
    expect(texts).toContain('<todo_rules>\nTick items off as you finish them.\n</todo_rules>');
    expect(texts).toContain('<todo_list>\n- [ ] step 1\n</todo_list>');
    expect(texts.filter((text) => text.includes('hidden') || text === 'not a list at all')).toEqual([]);
    expect(events.filter((event) => event.type === 'warning').map((event) => (event as { message: string }).message)).toEqual([
      "extension 'todo' sent a 'todo.secret' context fragment that none of its declared fragments renders; it was dropped",
      "extension 'todo' sent a 'todo.list' context fragment that none of its declared fragments renders; it was dropped",
    ]);
  });

  it('after a resume, rolls back the turns the user asked for and titles the thread with their first message, not a fragment', async () => {
    server.expect([
      sse(assistantMessage('one'), completed()),
      sse(assistantMessage('two'), completed()),
      sse(assistantMessage('three'), completed()),
      sse(assistantMessage('four'), completed()),
    ]);
    const extensions = new ExtensionRegistryBuilder().add(todoExtension()).build();
    const started = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', extensions });
    const { thread, manager } = started;
    for (const prompt of ['first', 'second', 'third']) await thread.runTurn(say(prompt));
    const threadId = thread.threadId;
    await thread.close();

    // Codex's `thread_rolled_back` line, as a client's rollback of two turns records it.
    const store = await FileThreadStore.open({ home: workspace.home, contextFragments: extensions.contextFragments });
    const { writer } = await store.openForResume(threadId);
    await writer.append({ type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: 2 } });
    await writer.close();
    store.close();

    const summary = (await manager.list()).data.find((entry) => entry.id === threadId);
    expect(summary?.title).toBe('first');

    const resumed = await (await started.newManager()).resume(threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('fourth'));
    await resumed.close();

    // Two turns back from 'third' leaves only the first: the fragments in each turn are no turns of their own.
    const prompts = userTexts(inputOf(3)).filter((text) => !text.startsWith('<') && !text.startsWith('# AGENTS.md'));
    expect(prompts).toEqual(['first', 'fourth']);
  });
});
