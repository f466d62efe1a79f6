// The host API end to end, in process: a runtime over a real home directory and store, threads on
// this machine, turns read as async iterables. The model is the mock Responses server; the test
// asserts on what it receives and on the events the host sees.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { assistantMessage, completed, functionCall, held, mockProviderConfigToml, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { defineExtension } from '@skein/extension-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime, HostError, type SkeinRuntime, type TurnEvent } from '../src/host/index.js';

const EXEC_SERVER_BIN = path.resolve(import.meta.dirname, '../node_modules/@skein/exec-server/dist/bin.js');

let model: MockResponsesServer;
let root: string;
let home: string;
let cwd: string;
const runtimes: SkeinRuntime[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  root = mkdtempSync(path.join(tmpdir(), 'skein-host-'));
  home = path.join(root, 'home');
  cwd = path.join(root, 'work');
  for (const dir of [home, cwd]) mkdirSync(dir);
  writeFileSync(path.join(home, 'config.toml'), mockProviderConfigToml(model.url));
});
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await model.close();
  rmSync(root, { recursive: true, force: true });
});

async function runtime(settings: Parameters<typeof createRuntime>[0] = {}): Promise<SkeinRuntime> {
  const opened = await createRuntime({ home, cwd, env: { PATH: process.env['PATH'], HOME: root }, settings: { sandbox_mode: 'danger-full-access' }, ...settings });
  runtimes.push(opened);
  return opened;
}

async function collect(events: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const seen: TurnEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('the host API', () => {
  it('runs a turn whose command needs approval, streaming the same notifications an app-server client sees', async () => {
    const target = path.join(cwd, 'made-by-turn');
    model.expect([sse(functionCall('exec_command', { cmd: `touch ${target}` }, { callId: 'call_touch' }), completed()), sse(assistantMessage(['Made ', 'it.']), completed())]);
    const asked: string[] = [];
    const skein = await runtime({ settings: { sandbox_mode: 'danger-full-access', approval_policy: 'untrusted' } });
    const thread = await skein.startThread({
      handlers: {
        requestCommandApproval: (request) => {
          asked.push(request.script);
          return Promise.resolve('accept');
        },
      },
    });
    const run = thread.run('make the file');
    const events = await collect(run);
    const result = await run.result;

    expect(asked).toEqual([`touch ${target}`]);
    expect(existsSync(target)).toBe(true);
    const methods = events.map((event) => event.method);
    expect(methods[0]).toBe('turn/started');
    expect(methods.at(-1)).toBe('turn/completed');
    expect(methods).toContain('item/agentMessage/delta');
    const completedItems = events.flatMap((event) => (event.method === 'item/completed' ? [event.params.item] : []));
    expect(completedItems.map((item) => item.type)).toEqual(['userMessage', 'commandExecution', 'agentMessage']);
    expect(completedItems[1]).toMatchObject({ type: 'commandExecution', status: 'completed', exitCode: 0 });
    expect(events.every((event) => event.params.threadId === thread.id)).toBe(true);
    expect(result).toMatchObject({ turnId: run.turnId, status: 'completed', finalResponse: 'Made it.', error: null });
    expect(result.items).toEqual(completedItems);
    const last = events.at(-1);
    expect(last?.method === 'turn/completed' && last.params.turn).toMatchObject({ id: run.turnId, status: 'completed', items: [completedItems[2]], itemsView: 'summary' });
    // The model read the command's output back, and usage adds up both responses.
    expect(model.requests[1]?.toolOutputText('call_touch')).toMatch(/Process exited with code 0/);
    expect(thread.tokenUsage.total.totalTokens).toBe(220);
    expect(result.usage.total.totalTokens).toBe(220);
  });

  it('declines approvals when the host gives no handler, and the model is told', async () => {
    model.expect([sse(functionCall('exec_command', { cmd: `touch ${path.join(cwd, 'nope')}` }, { callId: 'call_x' }), completed()), sse(assistantMessage('Ok.'), completed())]);
    const skein = await runtime({ settings: { sandbox_mode: 'danger-full-access', approval_policy: 'untrusted' } });
    const thread = await skein.startThread({ handlers: {} });
    const result = await thread.run('try').result;
    expect(result.status).toBe('completed');
    expect(existsSync(path.join(cwd, 'nope'))).toBe(false);
    expect(model.requests[1]?.toolOutputText('call_x')).toBeDefined();
  });

  it('lists, resumes in a new runtime, and forks a stored thread with its history', async () => {
    model.expect([sse(assistantMessage('First.'), completed()), sse(assistantMessage('Second.'), completed()), sse(assistantMessage('Forked.'), completed())]);
    const first = await runtime();
    const thread = await first.startThread();
    const firstTurn = thread.run('one');
    await firstTurn.result;
    const threadId = thread.id;
    await first.close();

    const second = await runtime();
    const page = await second.listThreads({ limit: 10 });
    expect(page.data.map((summary) => summary.id)).toContain(threadId);
    const resumed = await second.resumeThread(threadId);
    await expect(second.resumeThread(threadId)).rejects.toMatchObject({ code: 'AlreadyOpen' });
    expect((await resumed.run('two').result).finalResponse).toBe('Second.');
    const secondInput = JSON.stringify(model.requests[1]?.body?.input);
    expect(secondInput).toContain('one');
    expect(secondInput).toContain('First.');

    const fork = await second.forkThread(threadId, { lastTurnId: firstTurn.turnId });
    expect(fork.id).not.toBe(threadId);
    await fork.run('three').result;
    const forkInput = JSON.stringify(model.requests[2]?.body?.input);
    expect(forkInput).toContain('First.');
    expect(forkInput).not.toContain('Second.');
    expect(second.loadedThreads().map((open) => open.id).sort()).toEqual([threadId, fork.id].sort());
  });

  it('interrupts a running turn, refuses a second one while it runs, and ends with interrupted', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    model.expect([held(sse(assistantMessage('never seen'), completed()), { before: 'completed', until: released })]);
    const skein = await runtime();
    const thread = await skein.startThread({ settings: { model: 'gpt-5.5' } });
    const run = thread.run('wait');
    expect(() => thread.run('again')).toThrow(HostError);
    const events: TurnEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.method === 'item/agentMessage/delta') run.interrupt();
    }
    release();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(result.finalResponse).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ method: 'turn/completed', params: { turn: { status: 'interrupted' } } });
    expect(() => thread.interrupt()).toThrow(/no turn is running/);
  });

  it('stops a turn interrupted before it began: at once after run, or by a signal aborted already', async () => {
    const skein = await runtime();
    const thread = await skein.startThread();
    const run = thread.run('never mind');
    run.interrupt();
    const first = await run.result;
    expect(first.error).toBeNull();
    expect(first.status).toBe('interrupted');
    const signal = AbortSignal.abort();
    const second = await thread.run('not this either', { signal }).result;
    expect(second.error).toBeNull();
    expect(second.status).toBe('interrupted');
    // Neither reached the model (the mock fails the test on a request it has no answer for).
    expect(model.requests).toHaveLength(0);
  });

  it('runs commands on an exec-server when the runtime names one', async () => {
    const executor = spawn(process.execPath, [EXEC_SERVER_BIN, '--listen', 'ws://127.0.0.1:0'], { cwd, env: { PATH: process.env['PATH'], HOME: root, EXECUTOR_MARK: 'on-the-executor' }, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [url] = (await once(createInterface({ input: executor.stdout }), 'line')) as [string];
      model.expect([sse(functionCall('exec_command', { cmd: 'echo "[$EXECUTOR_MARK]"' }, { callId: 'call_where' }), completed()), sse(assistantMessage('There.'), completed())]);
      const skein = await runtime({ environment: { execServerUrl: url.trim() } });
      const thread = await skein.startThread();
      const result = await thread.run('where are you?').result;
      expect(result.status).toBe('completed');
      expect(model.requests[1]?.toolOutputText('call_where')).toContain('[on-the-executor]');
      await skein.close();
    } finally {
      executor.kill();
    }
  });

  it('refuses bad input with a HostError that says what to change', async () => {
    await expect(createRuntime({ home, cwd, env: {}, settings: { 'a.b': 1 } })).rejects.toMatchObject({ code: 'InvalidSettings' });
    await expect(createRuntime({ home, cwd, env: {}, settings: { model: Number.NaN } })).rejects.toMatchObject({ code: 'InvalidSettings' });
    // JavaScript callers can pass what the types forbid, and a value config itself refuses.
    const refusal = (settings: Record<string, unknown>) => createRuntime({ home, cwd, env: {}, settings: settings as never }).then(() => undefined, (error: unknown) => error as HostError);
    const nullModel = await refusal({ model: null });
    expect(nullModel).toBeInstanceOf(HostError);
    expect([nullModel?.code, nullModel?.message]).toEqual(['InvalidSettings', expect.stringContaining("'model'")]);
    const bogusSandbox = await refusal({ sandbox_mode: 'bogus' });
    expect([bogusSandbox?.code, bogusSandbox?.message]).toEqual(['InvalidSettings', expect.stringContaining('sandbox_mode')]);
    await expect(createRuntime({ home, cwd, env: {}, extensions: [defineExtension({ id: 'Not An Id' })] })).rejects.toMatchObject({ code: 'InvalidExtension' });
    const skein = await runtime();
    await expect(skein.resumeThread('not-a-thread')).rejects.toMatchObject({ code: 'InvalidThreadId' });
    await expect(skein.resumeThread('019b0000-0000-7000-8000-000000000000')).rejects.toMatchObject({ code: 'ThreadNotFound' });
    await expect(createRuntime({ home, cwd, env: {}, environment: { execServerUrl: 'http://127.0.0.1:1' } })).rejects.toMatchObject({ code: 'EnvironmentUnreachable' });
    await skein.close();
    await expect(skein.startThread()).rejects.toMatchObject({ code: 'Closed' });
  });

  it("finds its home as the CLI does when none is given: SKEIN_HOME, then CODEX_HOME; a relative one is refused", async () => {
    const skeinHome = path.join(root, 'skein-home');
    mkdirSync(skeinHome);
    writeFileSync(path.join(skeinHome, 'config.toml'), mockProviderConfigToml(model.url));
    const skein = await createRuntime({ cwd, env: { PATH: process.env['PATH'], HOME: root, SKEIN_HOME: skeinHome, CODEX_HOME: home } });
    runtimes.push(skein);
    const thread = await skein.startThread();
    expect(thread.path?.startsWith(path.join(skeinHome, 'sessions'))).toBe(true);
    await expect(createRuntime({ cwd, env: { SKEIN_HOME: 'relative/home' } })).rejects.toMatchObject({ code: 'InvalidSettings' });
  });

  it('says so when a thread names an extension the runtime did not load', async () => {
    const warnings: string[] = [];
    const skein = await runtime({ onWarning: (message) => warnings.push(message) });
    const thread = await skein.startThread({ settings: { skein: { extensions: ['./later-extension.js'] } } });
    expect(warnings).toEqual([expect.stringMatching(/extension '\.\/later-extension\.js' .* is not loaded: a runtime loads its extensions once/)]);
    await thread.close();
  });
});
