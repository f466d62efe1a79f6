// Approvals end to end: a thread with a real local environment (bubblewrap sandbox) and a scripted
// client, under each approval policy. Asserts on what the model reads back, what the client was
// asked, and what happened on disk.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnExecServer, type RemoteExecutor } from '@skein/exec-server';
import { probeSandbox } from '@skein/sandboxing';
import { assistantMessage, completed, customToolCall, functionCall, probeSandboxForTests, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_REJECTED_OUTPUT } from '../src/index.js';
import { ScriptedClient, say, toolThreadFixture, type ToolThreadFixture } from './support/tool-thread.js';

const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));
const EXEC_SERVER_BIN = path.resolve(import.meta.dirname, '../node_modules/@skein/exec-server/dist/bin.js');
const PROCESS_EXITED = /\nProcess exited with code (\d+)\n/;

let server: MockResponsesServer;
let fixture: ToolThreadFixture;
let cwd: string;
let outside: string;

beforeEach(async () => {
  server = await startMockResponsesServer();
  fixture = toolThreadFixture(server);
  ({ cwd, outside } = fixture);
});
afterEach(async () => {
  await fixture.cleanup();
  // Closing verifies the mock model: no unexpected request, no unused response.
  await server.close();
});

const openThread = (policy: string, client: ScriptedClient, options?: Parameters<ToolThreadFixture['openThread']>[2]) => fixture.openThread(policy, client, options);

/** Scripts one exec_command call per entry, each answered in the next request, then a final answer. */
function scriptCalls(...calls: Record<string, unknown>[]): void {
  server.expect([
    ...calls.map((args, index) => sse(functionCall('exec_command', args, { callId: `call_${index}` }), completed())),
    sse(assistantMessage('Done.'), completed()),
  ]);
}

const outputOf = (callId: string) => server.requests.map((request) => request.toolOutputText(callId)).find((text) => text !== undefined);
const exitCodeOf = (callId: string) => Number(PROCESS_EXITED.exec(outputOf(callId) ?? '')?.[1]);

describe.skipIf(NO_SANDBOX !== '')(`command approvals under bubblewrap${NO_SANDBOX}`, () => {
  it('never: a sandbox-denied write fails without a question, and the model reads the failure', async () => {
    const target = path.join(outside, 'x');
    scriptCalls({ cmd: `touch ${target}` });
    const client = new ScriptedClient();
    const { thread } = await openThread('"never"', client);
    await thread.runTurn(say('write outside'));
    expect(client.commandRequests).toEqual([]);
    expect(exitCodeOf('call_0')).not.toBe(0);
    expect(outputOf('call_0')).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(target)).toBe(false);
  });

  it('never: asking to escalate is refused without a question', async () => {
    scriptCalls({ cmd: `touch ${path.join(outside, 'x')}`, sandbox_permissions: 'require_escalated', justification: 'needs it' });
    const client = new ScriptedClient();
    const { thread } = await openThread('"never"', client);
    await thread.runTurn(say('escalate'));
    expect(client.commandRequests).toEqual([]);
    expect(outputOf('call_0')).toMatch(/^exec_command failed: the approval policy is never/);
  });

  it('on-request: a denied write is the model\'s to see; an escalation asks, and accepted runs outside the sandbox', async () => {
    const target = path.join(outside, 'y');
    scriptCalls({ cmd: `touch ${target}` }, { cmd: `touch ${target}`, sandbox_permissions: 'require_escalated', justification: 'write the report outside', prefix_rule: ['touch'] });
    const client = new ScriptedClient({ commands: ['accept'] });
    const { thread } = await openThread('"on-request"', client);
    await thread.runTurn(say('write outside'));
    expect(exitCodeOf('call_0')).not.toBe(0);
    expect(client.commandRequests).toHaveLength(1);
    expect(client.commandRequests[0]).toMatchObject({
      callId: 'call_1',
      command: `/bin/bash -lc 'touch ${target}'`,
      script: `touch ${target}`,
      cwd,
      environmentId: 'local',
      reason: 'write the report outside',
      proposedExecpolicyAmendment: ['touch'],
      availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }, 'cancel'],
    });
    expect(exitCodeOf('call_1')).toBe(0);
    expect(existsSync(target)).toBe(true);
  });

  it('untrusted: read-only commands run unasked; others ask, run sandboxed, and run outside after a denial', async () => {
    const target = path.join(outside, 'z');
    scriptCalls({ cmd: 'ls' }, { cmd: `touch ${target} && echo done` });
    const client = new ScriptedClient({ commands: ['accept'] });
    const { thread } = await openThread('"untrusted"', client);
    await thread.runTurn(say('go'));
    expect(exitCodeOf('call_0')).toBe(0);
    // Approved once, the sandbox denial is retried outside without a second question (as Codex).
    expect(client.commandRequests.map((request) => [request.callId, request.proposedExecpolicyAmendment])).toEqual([['call_1', ['touch', target]]]);
    expect(outputOf('call_1')).toMatch(/Process exited with code 0\n[^]*Output:\ndone\n$/);
    expect(existsSync(target)).toBe(true);
  });

  it('untrusted: decline never runs the command, the model is told, and the turn goes on', async () => {
    const target = path.join(cwd, 'declined.txt');
    scriptCalls({ cmd: `touch ${target}` });
    const client = new ScriptedClient({ commands: ['decline'] });
    const { thread } = await openThread('"untrusted"', client);
    const outcome = await thread.runTurn(say('go'));
    expect(outputOf('call_0')).toBe(COMMAND_REJECTED_OUTPUT);
    expect(outcome.status).toBe('completed');
    expect(server.requests).toHaveLength(2);
    expect(existsSync(target)).toBe(false);
  });

  it('on-failure (legacy): runs sandboxed unasked, then asks to retry outside; declined, the model is told', async () => {
    const target = path.join(outside, 'w');
    scriptCalls({ cmd: `touch ${target}` });
    const client = new ScriptedClient({ commands: ['decline'] });
    const { thread } = await openThread('"on-failure"', client);
    await thread.runTurn(say('go'));
    expect(client.commandRequests).toHaveLength(1);
    expect(client.commandRequests[0]?.reason).toMatch(/sandbox/);
    expect(outputOf('call_0')).toBe(COMMAND_REJECTED_OUTPUT);
    expect(existsSync(target)).toBe(false);
  });

  it('granular without sandbox approvals: an escalation is refused without a question', async () => {
    scriptCalls({ cmd: `touch ${path.join(outside, 'g')}`, sandbox_permissions: 'require_escalated' });
    const client = new ScriptedClient();
    const { thread } = await openThread('{ granular = { sandbox_approval = false, rules = true, mcp_elicitations = true } }', client);
    await thread.runTurn(say('go'));
    expect(client.commandRequests).toEqual([]);
    expect(outputOf('call_0')).toMatch(/^exec_command failed: .*granular/);
  });

  it('exec-policy rules in CODEX_HOME/rules: forbidden refuses without a question, prompt asks even for a read-only command', async () => {
    const rules = path.join(fixture.home, 'rules', 'team.rules');
    mkdirSync(path.dirname(rules));
    writeFileSync(rules, 'prefix_rule(pattern=["ls"], decision="prompt", justification="listings are audited")\nprefix_rule(pattern=["touch"], decision="forbidden", justification="no new files")\n');
    scriptCalls({ cmd: 'touch made.txt' }, { cmd: 'ls' });
    const client = new ScriptedClient({ commands: ['accept'] });
    const { thread } = await openThread('"untrusted"', client);
    await thread.runTurn(say('go'));
    expect(outputOf('call_0')).toBe(`exec_command failed: forbidden by the exec-policy rule at ${rules}:2 (no new files)`);
    expect(existsSync(path.join(cwd, 'made.txt'))).toBe(false);
    expect(client.commandRequests.map((request) => [request.callId, request.reason])).toEqual([['call_1', 'listings are audited']]);
    expect(exitCodeOf('call_1')).toBe(0);
  });

  it('a prefix allowed for good is saved to rules/default.rules, and a later thread runs it unasked, outside the sandbox', async () => {
    const first = path.join(outside, 'first');
    const second = path.join(outside, 'second');
    server.expect([
      sse(functionCall('exec_command', { cmd: `touch ${first}`, sandbox_permissions: 'require_escalated', justification: 'write outside', prefix_rule: ['touch'] }, { callId: 'call_0' }), completed()),
      sse(assistantMessage('Done.'), completed()),
      sse(functionCall('exec_command', { cmd: `touch ${second}` }, { callId: 'call_1' }), completed()),
      sse(assistantMessage('Done again.'), completed()),
    ]);
    const client = new ScriptedClient({ commands: [{ acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }] });
    const { thread } = await openThread('"on-request"', client);
    await thread.runTurn(say('allow touch'));
    expect(readFileSync(path.join(fixture.home, 'rules', 'default.rules'), 'utf8')).toBe('prefix_rule(pattern=["touch"], decision="allow")\n');
    expect(existsSync(first)).toBe(true);

    const later = new ScriptedClient();
    const { thread: next } = await openThread('"untrusted"', later);
    await next.runTurn(say('touch again'));
    expect(later.commandRequests).toEqual([]);
    expect(exitCodeOf('call_1')).toBe(0);
    expect(existsSync(second)).toBe(true);
  });

  it("a trusted project's .codex/rules apply beside the user's; an untrusted project's do not", async () => {
    mkdirSync(path.join(cwd, '.codex', 'rules'), { recursive: true });
    writeFileSync(path.join(cwd, '.codex', 'config.toml'), '# project settings\n');
    writeFileSync(path.join(cwd, '.codex', 'rules', 'project.rules'), 'prefix_rule(pattern=["touch"], decision="forbidden")\n');
    server.expect([
      sse(functionCall('exec_command', { cmd: 'touch trusted.txt' }, { callId: 'call_0' }), completed()),
      sse(assistantMessage('Refused.'), completed()),
      sse(functionCall('exec_command', { cmd: 'touch untrusted.txt' }, { callId: 'call_1' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    writeFileSync(path.join(fixture.home, 'config.toml'), `[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n`);
    const trusted = await openThread('"never"', new ScriptedClient());
    await trusted.thread.runTurn(say('touch'));
    rmSync(path.join(fixture.home, 'config.toml'));
    expect(outputOf('call_0')).toBe(`exec_command failed: forbidden by the exec-policy rule at ${path.join(cwd, '.codex', 'rules', 'project.rules')}:1`);
    const untrusted = await openThread('"never"', new ScriptedClient());
    await untrusted.thread.runTurn(say('touch'));
    expect(exitCodeOf('call_1')).toBe(0);
    expect(existsSync(path.join(cwd, 'untrusted.txt'))).toBe(true);
  });

  it('a rules file that cannot be read is reported as a warning and left out; commands go on under the approval policy', async () => {
    const rules = path.join(fixture.home, 'rules', 'broken.rules');
    mkdirSync(path.dirname(rules));
    writeFileSync(rules, 'prefix_rule(pattern=["ls"], decision="forbidden")\nprefix_rule(pattern=["touch"], decision="sometimes")\n');
    scriptCalls({ cmd: 'ls' });
    const { thread, events } = await openThread('"never"', new ScriptedClient());
    await thread.runTurn(say('list'));
    expect(exitCodeOf('call_0')).toBe(0);
    const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${rules}:2: prefix_rule \`decision\``);
  });

  it('a rule that allows one part of a chain leaves the rest to the policy; granular rules=false refuses what a rule would ask', async () => {
    const rules = path.join(fixture.home, 'rules', 'team.rules');
    mkdirSync(path.dirname(rules));
    writeFileSync(rules, 'prefix_rule(pattern=["touch"])\nprefix_rule(pattern=["cat"], decision="prompt")\n');
    const call = (callId: string, cmd: string) => sse(functionCall('exec_command', { cmd }, { callId }), completed());
    server.expect([call('call_0', 'touch chained.txt && ls'), sse(assistantMessage('Done.'), completed()), call('call_1', 'cat chained.txt'), sse(assistantMessage('Done.'), completed())]);
    // Under untrusted, touch alone would ask; the rule allows it and ls is read-only, so nothing asks.
    const untrusted = new ScriptedClient();
    const { thread: first } = await openThread('"untrusted"', untrusted);
    await first.runTurn(say('go'));
    expect(untrusted.commandRequests).toEqual([]);
    expect(exitCodeOf('call_0')).toBe(0);
    expect(existsSync(path.join(cwd, 'chained.txt'))).toBe(true);

    const granular = new ScriptedClient();
    const { thread: second } = await openThread('{ granular = { sandbox_approval = true, rules = false, mcp_elicitations = false } }', granular);
    await second.runTurn(say('read it'));
    expect(granular.commandRequests).toEqual([]);
    expect(outputOf('call_1')).toMatch(/^exec_command failed: approval required by policy rule, but the granular approval policy turns off rule approvals \(asked for by the exec-policy rule at .*team\.rules:2\)$/);
  });

  it('cancel stops the turn as an interrupt', async () => {
    server.expect([sse(functionCall('exec_command', { cmd: 'touch cancelled.txt' }, { callId: 'call_0' }), completed())]);
    const client = new ScriptedClient({ commands: ['cancel'] });
    const { thread } = await openThread('"untrusted"', client);
    const outcome = await thread.runTurn(say('go'));
    expect(outcome.status).toBe('interrupted');
    expect(existsSync(path.join(cwd, 'cancelled.txt'))).toBe(false);
  });

  it('approve-for-session does not cover the same command asking to leave the sandbox', async () => {
    mkdirSync(path.join(cwd, 'build'));
    scriptCalls({ cmd: 'rm -rf build' }, { cmd: 'rm -rf build', sandbox_permissions: 'require_escalated', justification: 'again' });
    const client = new ScriptedClient({ commands: ['acceptForSession', 'decline'] });
    const { thread } = await openThread('"on-request"', client);
    await thread.runTurn(say('clean'));
    expect(client.commandRequests.map((request) => [request.callId, request.availableDecisions])).toEqual([
      ['call_0', ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['rm', '-rf', 'build'] } }, 'cancel']],
      ['call_1', ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['rm', '-rf', 'build'] } }, 'cancel']],
    ]);
    expect(outputOf('call_1')).toBe(COMMAND_REJECTED_OUTPUT);
  });

  it('approve-for-session is reused for the same command and cwd, and asked again on another environment', async () => {
    const remote: RemoteExecutor = await spawnExecServer({ command: [process.execPath, EXEC_SERVER_BIN, '--listen', 'stdio'], cwd });
    fixture.defer(() => remote.close());
    const cmd = 'touch session.txt';
    server.expect([
      sse(functionCall('exec_command', { cmd }, { callId: 'call_0' }), completed()),
      sse(functionCall('exec_command', { cmd }, { callId: 'call_1' }), completed()),
      sse(assistantMessage('Done locally.'), completed()),
      sse(functionCall('exec_command', { cmd }, { callId: 'call_2' }), completed()),
      sse(assistantMessage('Done remotely.'), completed()),
    ]);
    const client = new ScriptedClient({ commands: ['acceptForSession', 'accept'] });
    const { thread } = await openThread('"untrusted"', client);
    await thread.runTurn(say('twice here'));
    expect(client.commandRequests.map((request) => [request.callId, request.environmentId])).toEqual([['call_0', 'local']]);
    expect(exitCodeOf('call_1')).toBe(0);

    thread.useEnvironment({ fileSystem: remote.fileSystem, processes: remote.processes, env: { PATH: process.env.PATH }, shell: '/bin/bash', id: 'remote' });
    await thread.runTurn(say('once there'));
    expect(client.commandRequests.map((request) => [request.callId, request.environmentId])).toEqual([
      ['call_0', 'local'],
      ['call_2', 'remote'],
    ]);
    expect(exitCodeOf('call_2')).toBe(0);
  });
});

describe.skipIf(NO_SANDBOX !== '')(`patch approvals under bubblewrap${NO_SANDBOX}`, () => {
  const patchAdding = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+hello\n*** End Patch\n`;

  it('a patch inside the writable roots applies unasked under on-request; outside it asks, and declined writes nothing', async () => {
    const target = path.join(outside, 'out.txt');
    server.expect([
      sse(customToolCall('apply_patch', patchAdding('inside.txt'), { callId: 'call_0' }), completed()),
      sse(customToolCall('apply_patch', patchAdding(target), { callId: 'call_1' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const client = new ScriptedClient({ patches: ['decline'] });
    const { thread, events } = await openThread('"on-request"', client);
    await thread.runTurn(say('patch'));
    expect(existsSync(path.join(cwd, 'inside.txt'))).toBe(true);
    expect(client.patchRequests).toHaveLength(1);
    expect(client.patchRequests[0]).toMatchObject({ callId: 'call_1', changes: [{ path: target, kind: 'add' }], grantRoot: outside });
    expect(outputOf('call_1')).toMatch(/^Exit code: 1\n[^]*patch rejected by user\n$/);
    expect(existsSync(target)).toBe(false);
    expect(events.filter((event) => event.type === 'patchApplied').map((event) => event.success)).toEqual([true, false]);
  });

  it('an accepted patch outside the writable roots is written', async () => {
    const target = path.join(outside, 'granted.txt');
    server.expect([sse(customToolCall('apply_patch', patchAdding(target), { callId: 'call_0' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = new ScriptedClient({ patches: ['accept'] });
    const { thread } = await openThread('"on-request"', client);
    await thread.runTurn(say('patch'));
    expect(outputOf('call_0')).toMatch(/^Exit code: 0\n/);
    expect(existsSync(target)).toBe(true);
  });
});

describe('user shell commands', () => {
  it('run on the environment as their own turn, and the model sees them next time', async () => {
    server.expect([sse(assistantMessage('Seen.'), completed())]);
    const { thread, events } = await openThread('"never"', new ScriptedClient(), { sandbox: 'read-only' });
    const result = await thread.runUserShellCommand('echo from-user');
    expect(result).toMatchObject({ exitCode: 0, output: 'from-user\n', timedOut: false });
    const facts = events.filter((event) => event.type !== 'turnItem' && event.type !== 'turnItemOutputDelta');
    expect(facts.map((event) => event.type)).toEqual(['sessionConfigured', 'turnStarted', 'commandStarted', 'commandOutputDelta', 'commandCompleted', 'turnCompleted']);
    // The same command as the client's item: started, its output, completed.
    const items = events.flatMap((event) => (event.type === 'turnItem' ? [`${event.phase}:${event.item.kind}:${'status' in event.item ? event.item.status : ''}`] : event.type === 'turnItemOutputDelta' ? ['output'] : []));
    expect(items).toEqual(['started:commandExecution:inProgress', 'output', 'completed:commandExecution:completed']);
    expect(events.find((event) => event.type === 'commandStarted')).toMatchObject({ source: 'userShell', cmd: 'echo from-user' });
    await thread.runTurn(say('what did I run?'));
    const shellMessage = server.requests[0]!.messageTexts('user').find((text) => text.startsWith('<user_shell_command>'));
    expect(shellMessage).toMatch(/^<user_shell_command>\n<command>\necho from-user\n<\/command>\n<result>\nExit code: 0\nDuration: \d+\.\d{4} seconds\nOutput:\nfrom-user\n\n<\/result>\n<\/user_shell_command>$/);
  });

  it('fail their turn with “shell is unavailable in this session” when the thread has no environment, as Codex', async () => {
    const { thread, events } = await openThread('"never"', new ScriptedClient(), { environment: null });
    const from = events.length;
    await expect(thread.runUserShellCommand('echo hi')).rejects.toMatchObject({ code: 'ShellUnavailable', message: 'shell is unavailable in this session' });
    const turn = events.slice(from).filter((event) => event.type !== 'turnItem');
    expect(turn.map((event) => event.type)).toEqual(['turnStarted', 'turnFailed']);
    expect(turn[1]).toMatchObject({ error: { message: 'shell is unavailable in this session' } });
    // The thread is free again.
    await expect(thread.runUserShellCommand('echo hi')).rejects.toMatchObject({ code: 'ShellUnavailable' });
  });

  it('run on the local environment when another is primary, in its cwd; without one the turn fails (a warning alongside a model turn)', async () => {
    // Another machine stood in for by this one's processes, told apart by a variable only it sets.
    const elsewhere = { ...fixture.localEnvironment(), id: 'elsewhere', env: { PATH: process.env.PATH, MARKER: 'elsewhere' } };
    const localCwd = path.join(cwd, 'local-side');
    mkdirSync(localCwd);
    const { thread, events } = await openThread('"never"', new ScriptedClient(), { environment: elsewhere, sandbox: 'danger-full-access' });
    await expect(thread.runUserShellCommand('echo "[$MARKER]"')).rejects.toMatchObject({ code: 'ShellUnavailable' });
    expect(events.filter((event) => event.type === 'commandStarted')).toEqual([]);

    // Alongside a model turn it does not end that turn: a warning says why, and the turn goes on.
    server.expect([sse(functionCall('exec_command', { cmd: 'sleep 1' }, { callId: 'call_sleep' }), completed()), sse(assistantMessage('Slept.'), completed())]);
    const running = thread.runTurn(say('sleep'));
    await expect.poll(() => events.some((event) => event.type === 'commandStarted')).toBe(true);
    await expect(thread.runUserShellCommand('echo hi')).rejects.toMatchObject({ code: 'ShellUnavailable' });
    expect(events.filter((event) => event.type === 'warning').at(-1)).toMatchObject({ message: 'shell is unavailable in this session' });
    expect(await running).toMatchObject({ status: 'completed' });
    events.splice(0);

    thread.useEnvironment([elsewhere, { ...fixture.localEnvironment(), id: 'local', cwd: localCwd }]);
    expect(await thread.runUserShellCommand('echo "[$MARKER]"; pwd')).toMatchObject({ exitCode: 0, output: `[]\n${localCwd}\n` });
    expect(events.find((event) => event.type === 'commandStarted')).toMatchObject({ source: 'userShell', cwd: localCwd });
  });
});
