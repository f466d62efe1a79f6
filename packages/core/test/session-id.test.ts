// Every thread's header names its session: a root thread's own id when no caller passed one, and a
// cold-resumed thread keeps it (its requests say so too).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { startTestThread } from '../src/testing/index.js';
import { useMockWorkspace } from './support/mock-workspace.js';
import { say } from './support/tool-thread.js';

const scenario = useMockWorkspace();


describe('session ids', () => {
  it("records a root thread's own id as its session, and a cold resume keeps it", async () => {
    scenario.server.expect([sse(assistantMessage('one'), completed()), sse(assistantMessage('two'), completed())]);
    const opened = await startTestThread(scenario.workspace, { modelUrl: scenario.server.url, hostEnv: process.env, overrides: ['approval_policy="never"'] });
    await opened.thread.runTurn(say('one'));
    await opened.thread.close();
    const sessions = path.join(scenario.workspace.home, 'sessions');
    const file = readdirSync(sessions, { recursive: true }).map(String).find((name) => name.endsWith('.jsonl'))!;
    const header = () => (JSON.parse(readFileSync(path.join(sessions, file), 'utf8').split('\n')[0]!) as { type: string; payload: { id: string; session_id?: string } });
    expect(header()).toMatchObject({ type: 'session_meta', payload: { id: opened.thread.threadId, session_id: opened.thread.threadId } });

    const resumed = await (await opened.newManager()).resume(opened.thread.threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('two'));
    await resumed.close();
    expect(header().payload.session_id).toBe(opened.thread.threadId);
    expect(scenario.server.requests[1]!.header('session-id')).toBe(opened.thread.threadId);
  });
});
