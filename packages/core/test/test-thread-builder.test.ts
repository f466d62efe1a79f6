// The shared test-thread builder, in each of its environments: a remote exec-server over WebSocket
// runs the thread's commands and holds its files; without an environment no built-in tool is offered.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, functionCall, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';
import { say } from './support/tool-thread.js';

let server: MockResponsesServer;
let workspace: TestWorkspace;
beforeEach(async () => {
  server = await startMockResponsesServer();
  workspace = createTestWorkspace();
});
afterEach(async () => {
  await workspace.close();
  await server.close();
});

describe('startTestThread', () => {
  it('runs a thread’s commands and patches on a remote exec-server', async () => {
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo from-the-executor' }, { callId: 'call_echo' }), completed()),
      sse(customToolCall('apply_patch', '*** Begin Patch\n*** Add File: remote.txt\n+written remotely\n*** End Patch\n', { callId: 'call_patch' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread, events, environment } = await startTestThread(workspace, {
      modelUrl: server.url,
      hostEnv: process.env,
      environment: 'remote',
      overrides: ['approval_policy="never"', 'sandbox_mode="danger-full-access"'],
    });
    expect(environment?.id).toBe('remote');
    await thread.runTurn(say('run it'));
    expect(server.requests[1]!.toolOutputText('call_echo')).toMatch(/Process exited with code 0[\s\S]*from-the-executor\n$/);
    expect(events).toContainEqual(expect.objectContaining({ type: 'commandCompleted', callId: 'call_echo', aggregatedOutput: 'from-the-executor\n' }));
    expect(readFileSync(path.join(workspace.workspace, 'remote.txt'), 'utf8')).toBe('written remotely\n');
  });

  it('offers no tool that acts on an environment without one: only the goal tools, tool_search (for the sub-agent tools) and the hosted web search, which need none', async () => {
    server.expect([sse(assistantMessage('Hi.'), completed())]);
    const { thread } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none' });
    await thread.runTurn(say('hello'));
    expect(server.requests[0]!.toolNames()).toEqual(['get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search']);
  });
});
