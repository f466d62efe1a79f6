// ThreadHandle.captureCommand: a host's one-off command on the thread's primary environment — run
// through that environment's own processes (here or on an exec-server), in the thread's cwd, under
// its sandbox, its output bounded — with no turn item and nothing recorded for the model.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';

let model: MockResponsesServer;
let workspace: TestWorkspace;

beforeEach(async () => {
  model = await startMockResponsesServer();
  workspace = createTestWorkspace();
});
afterEach(async () => {
  await workspace.close();
  await model.close();
});

describe('ThreadHandle.captureCommand', () => {
  it.each(['local', 'remote'] as const)('runs on the %s primary environment in the thread cwd, and no event or history records it', async (environment) => {
    writeFileSync(path.join(workspace.workspace, 'marker.txt'), 'here\n');
    const { thread, events } = await startTestThread(workspace, { modelUrl: model.url, hostEnv: process.env, environment });
    const before = events.length;
    const capture = await thread.captureCommand(['sh', '-c', 'pwd; cat marker.txt; echo "[$EXTRA]"; echo oops >&2; exit 3'], { env: { EXTRA: 'laid over' } });
    expect(capture).toEqual({ exitCode: 3, stdout: `${workspace.workspace}\nhere\n[laid over]\n`, stderr: 'oops\n', truncated: false, timedOut: false, failure: null });
    expect(events.slice(before)).toEqual([]);
    expect(thread.history()).toEqual([]);
  });

  it("runs under the thread's sandbox: a read-only thread's capture cannot write", async () => {
    const { thread } = await startTestThread(workspace, { modelUrl: model.url, hostEnv: process.env, overrides: ['sandbox_mode="read-only"'] });
    const capture = await thread.captureCommand(['sh', '-c', 'echo x > written.txt && echo wrote']);
    expect(capture.exitCode).not.toBe(0);
    expect(capture.stdout).toBe('');
    expect(existsSync(path.join(workspace.workspace, 'written.txt'))).toBe(false);
  });

  it('cuts output past its bound and ends the command', async () => {
    const { thread } = await startTestThread(workspace, { modelUrl: model.url, hostEnv: process.env });
    const capture = await thread.captureCommand(['sh', '-c', 'yes 0123456789 | head -c 100000; sleep 30'], { maxOutputBytes: 1000 });
    expect(capture).toMatchObject({ exitCode: null, truncated: true, timedOut: false });
    expect(capture.stdout).toHaveLength(1000);
  });

  it('ends a command that outlives its deadline', async () => {
    const { thread } = await startTestThread(workspace, { modelUrl: model.url, hostEnv: process.env });
    const capture = await thread.captureCommand(['sh', '-c', 'echo started; sleep 30'], { timeoutMs: 300 });
    expect(capture).toMatchObject({ exitCode: null, stdout: 'started\n', truncated: false, timedOut: true });
  });

  it('refuses on a thread without an environment', async () => {
    const { thread } = await startTestThread(workspace, { modelUrl: model.url, hostEnv: process.env, environment: 'none' });
    await expect(thread.captureCommand(['true'])).rejects.toMatchObject({ code: 'ShellUnavailable' });
  });
});
