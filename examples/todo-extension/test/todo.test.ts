// Tests the extension in a real thread against @skein/test-support's mock model: the model is offered
// the tools, the list survives a resume, and after it the model is shown only what changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestWorkspace, startTestThread } from '@skein/core/testing';
import { ExtensionRegistryBuilder } from '@skein/extension-api';
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer } from '@skein/test-support';
import { extension, renderTodoChange } from '../src/index.js';

const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];

test('renders only what changed', () => {
  assert.equal(renderTodoChange([], []), undefined);
  assert.equal(renderTodoChange([{ text: 'a', done: false }], [{ text: 'a', done: true }, { text: 'b', done: false }]), '<todos>\nChanges to the todo list (1 open, 1 done):\nx [x] a\n+ [ ] b\n</todos>');
});

test('keeps the list across a resume and shows the model the change once', async (t) => {
  const model = await startMockResponsesServer();
  const workspace = createTestWorkspace();
  t.after(async () => {
    await workspace.close();
    await model.close();
  });
  const extensions = new ExtensionRegistryBuilder().add(extension).build();
  const { thread, newManager } = await startTestThread(workspace, { modelUrl: model.url, hostEnv: process.env, environment: 'none', extensions });

  model.expect([sse(functionCall('todo_add', { text: 'buy milk' }, { callId: 'call_milk' }), completed()), sse(assistantMessage('Added.'), completed())]);
  await thread.runTurn(say('Remind me to buy milk.'));
  assert.ok(model.requests[0]!.toolNames().includes('todo_add'));
  assert.equal(model.requests[1]!.toolOutputText('call_milk'), 'Added "buy milk" (1 open, 0 done).');
  await thread.close();

  // A new process resumes the thread: the store comes back from the rollout.
  const resumed = await (await newManager()).resume(thread.threadId, { onEvent: () => undefined });
  model.expect([sse(assistantMessage('Buy milk.'), completed())]);
  await resumed.runTurn(say("What's on my list?"));
  const input = JSON.stringify(model.requests[2]!.body!.input);
  assert.equal(input.split('+ [ ] buy milk').length - 1, 1);
  assert.equal(input.split('<todo_instructions>').length - 1, 1);
});
