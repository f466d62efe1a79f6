// `skein exec` as a user (or @openai/codex-sdk) runs it: the built binary, a real home directory with
// config.toml pointing at the mock Responses server, and a git repository as the working directory.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import {
  assistantMessage,
  completed,
  customToolCall,
  functionCall,
  httpError,
  probeSandboxForTests,
  reasoningItem,
  sse,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';

let fixture: ExecScratch;
let scratch: string;
let home: string;
let repo: string;
let server: MockResponsesServer;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-');
  ({ scratch, home, repo, server } = fixture);
});
afterEach(() => fixture.cleanup());

const skein = (args: string[], stdin = '') => fixture.skein(args, { stdin });

// Commands run in the real sandbox; a machine without usable bubblewrap skips these with the reason.
const { skip: noSandbox } = await probeSandboxForTests(() => probeSandbox({ env: process.env }));

describe.skipIf(noSandbox !== '')(`skein exec with tools${noSandbox}`, () => {
  it('runs exec_command in the sandbox, shows it as command_execution, and answers the model in Codex format', async () => {
    server.expect([sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()), sse(assistantMessage('It printed `hi`.'), completed())]);
    const { code, stdout, stderr } = await skein(['exec', '--json', 'Run `echo hi` and tell me what it printed.']);
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    const events = jsonLines(stdout).slice(1);
    expect(events).toEqual([
      { type: 'turn.started' },
      { type: 'item.started', item: { id: 'item_0', type: 'command_execution', command: "/bin/bash -lc 'echo hi'", aggregated_output: '', exit_code: null, status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: "/bin/bash -lc 'echo hi'", aggregated_output: 'hi\n', exit_code: 0, status: 'completed' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'It printed `hi`.' } },
      { type: 'turn.completed', usage: { input_tokens: 200, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 0 } },
    ]);
    expect(server.requests[0]!.toolNames()).toEqual(['exec_command', 'write_stdin', 'request_user_input', 'apply_patch', 'view_image', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search']);
    const output = server.requests[1]!.toolOutputText('call_mock_0002');
    expect(output).toMatch(/^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhi\n$/);
    server.verify();
  });

  it('applies a patch in workspace-write, shows a file_change, and answers in Codex format', async () => {
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello from the patch\n*** End Patch';
    server.expect([sse(customToolCall('apply_patch', patch), completed()), sse(assistantMessage('Created hello.txt.'), completed())]);
    const { code, stdout } = await skein(['exec', '--json', '-s', 'workspace-write', 'Create hello.txt.']);
    expect(code).toBe(0);
    // What the model was told first: when the patch did not apply, it says why.
    expect(server.requests[1]!.toolOutputText('call_mock_0002')).toMatch(/^Exit code: 0\nWall time: [\d.]+ seconds\nOutput:\nSuccess\. Updated the following files:\nA hello\.txt\n$/);
    expect(readFileSync(path.join(repo, 'hello.txt'), 'utf8')).toBe('hello from the patch\n');
    const fileEvents = jsonLines(stdout).filter((event) => (event.type === 'item.started' || event.type === 'item.completed') && event.item.type === 'file_change');
    expect(fileEvents).toEqual([
      { type: 'item.started', item: { id: 'item_0', type: 'file_change', changes: [{ path: path.join(repo, 'hello.txt'), kind: 'add' }], status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_0', type: 'file_change', changes: [{ path: path.join(repo, 'hello.txt'), kind: 'add' }], status: 'completed' } },
    ]);
  });

  it('keeps the workspace read-only by default, for commands and for patches', async () => {
    const patch = '*** Begin Patch\n*** Add File: sneaky.txt\n+x\n*** End Patch';
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo x > written.txt' }), customToolCall('apply_patch', patch), completed()),
      sse(assistantMessage('Both refused.'), completed()),
    ]);
    const { code, stdout } = await skein(['exec', '--json', 'Try to write.']);
    expect(code).toBe(0);
    // The refused patch is still shown, as failed.
    expect(jsonLines(stdout)).toContainEqual({
      type: 'item.completed',
      item: { id: 'item_1', type: 'file_change', changes: [{ path: path.join(repo, 'sneaky.txt'), kind: 'add' }], status: 'failed' },
    });
    expect(existsSync(path.join(repo, 'written.txt'))).toBe(false);
    expect(existsSync(path.join(repo, 'sneaky.txt'))).toBe(false);
    expect(server.requests[1]!.toolOutputText('call_mock_0002')).toMatch(/Process exited with code [1-9]/);
    expect(server.requests[1]!.toolOutputText('call_mock_0004')).toMatch(/^Exit code: 1\n/);
  });

  it('refuses a patch that reaches outside the writable roots', async () => {
    const outside = path.join('/var/tmp', `skein-patch-escape-${process.pid}.txt`);
    const patch = `*** Begin Patch\n*** Add File: ${outside}\n+x\n*** End Patch`;
    server.expect([sse(customToolCall('apply_patch', patch), completed()), sse(assistantMessage('Refused.'), completed())]);
    try {
      const { code } = await skein(['exec', '-s', 'workspace-write', 'Escape.']);
      expect(code).toBe(0);
      expect(existsSync(outside)).toBe(false);
      expect(server.requests[1]!.toolOutputText('call_mock_0002')).toMatch(/^Exit code: 1\n/);
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it('kills the commands it started when it is terminated', async () => {
    const pidFile = path.join(repo, 'sleeper.pid');
    server.expect([sse(functionCall('exec_command', { cmd: `echo $$ > ${pidFile}; exec sleep 60`, yield_time_ms: 30000 }), completed())]);
    const child = spawn(process.execPath, [BIN, 'exec', '-s', 'danger-full-access', 'Sleep.'], {
      cwd: repo,
      env: { PATH: process.env.PATH, HOME: path.join(scratch, 'user'), CODEX_HOME: home, MOCK_API_KEY: 'sk-mock' },
    });
    // Piped stdin beside a prompt is read to its end (and appended), as codex exec does: close it.
    child.stdin.end();
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (let waited = 0; !existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === ''; waited += 50) {
      if (waited > 20_000) throw new Error('the command never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    server.verify();
  });

  it('cannot write outside the workspace, whatever the model asks', async () => {
    // /tmp and $TMPDIR are writable in workspace-write (as in Codex), so aim at /var/tmp.
    const outside = path.join('/var/tmp', `skein-escape-${process.pid}.txt`);
    server.expect([sse(functionCall('exec_command', { cmd: `echo x > ${outside}` }), completed()), sse(assistantMessage('Denied.'), completed())]);
    try {
      const { code } = await skein(['exec', '-s', 'workspace-write', 'Write outside.']);
      expect(code).toBe(0);
      expect(existsSync(outside)).toBe(false);
    } finally {
      rmSync(outside, { force: true });
    }
    expect(server.requests[1]!.toolOutputText('call_mock_0002')).toMatch(/Process exited with code [1-9][\s\S]*(Read-only file system|Permission denied)/);
  });
});

describe('skein exec', () => {
  it('--json prints the event stream Codex prints, and the model gets the context and the prompt', async () => {
    server.expect([sse(reasoningItem('Thinking.'), assistantMessage('Hello from the mock model.'), completed())]);
    const { code, stdout, stderr } = await skein(['exec', '--json', 'Say hello.']);
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    const events = jsonLines(stdout);
    const threadId = (events[0] as { thread_id: string }).thread_id;
    expect(events).toEqual([
      { type: 'thread.started', thread_id: threadId },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: 'Thinking.' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Hello from the mock model.' } },
      { type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0 } },
    ]);
    const request = server.requests[0]!;
    expect(request.header('authorization')).toBe('Bearer sk-mock');
    expect(request.body).toMatchObject({ model: 'gpt-5.5', prompt_cache_key: threadId, store: false, stream: true });
    expect(request.messageTexts('user').at(-1)).toBe('Say hello.');
    expect(request.messageTexts('user').some((text) => text.includes(`<cwd>${repo}</cwd>`) && text.includes('<timezone>Etc/UTC</timezone>'))).toBe(true);
    server.verify();
  });

  it('prints only the final message without --json, reads the prompt from stdin, and resumes with --last', async () => {
    server.expect([sse(assistantMessage('First.'), completed()), sse(assistantMessage('Second.'), completed())]);
    const first = await skein(['exec'], 'What is first?\n');
    expect(first).toMatchObject({ code: 0, stdout: 'First.\n' });
    const threadId = /session id: (\S+)/.exec(first.stderr)?.[1];

    const second = await skein(['exec', 'resume', '--last', '--json', 'And second?']);
    expect(second.code).toBe(0);
    expect(jsonLines(second.stdout)[0]).toEqual({ type: 'thread.started', thread_id: threadId });
    // The resumed request replays the first turn, then the new prompt.
    expect(server.requests[1]!.messageTexts('user').slice(-2)).toEqual(['What is first?', 'And second?']);
    expect(server.requests[1]!.messageTexts('assistant')).toEqual(['First.']);
    // As Codex: the usage a resumed turn reports is the thread's running total, the first turn's included.
    expect(jsonLines(second.stdout).at(-1)).toMatchObject({ type: 'turn.completed', usage: { input_tokens: 200, output_tokens: 20 } });
    server.verify();
  });

  it('sends an output schema as text.format', async () => {
    server.expect([sse(assistantMessage('{"answer":"4"}'), completed())]);
    const schemaFile = path.join(scratch, 'schema.json');
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    writeFileSync(schemaFile, JSON.stringify(schema));
    const { code, stdout } = await skein(['exec', '--output-schema', schemaFile, 'What is 2 + 2?']);
    expect({ code, stdout }).toEqual({ code: 0, stdout: '{"answer":"4"}\n' });
    expect(server.requests[0]!.body).toMatchObject({ text: { verbosity: 'low', format: { type: 'json_schema', strict: true, schema, name: 'codex_output_schema' } } });
  });

  it('reports a failed turn as error and turn.failed, and exits 1', async () => {
    server.expect([httpError(400, { body: { error: { message: 'bad tool schema' } } })]);
    const { code, stdout } = await skein(['exec', '--experimental-json', 'hi']);
    expect(code).toBe(1);
    expect(jsonLines(stdout).slice(-2)).toEqual([
      { type: 'error', message: expect.stringContaining('bad tool schema') as string },
      { type: 'turn.failed', error: { message: expect.stringContaining('bad tool schema') as string } },
    ]);
  });

  it('aborts a turn at a spent rollout budget, saying budget reached; the command never runs', async () => {
    server.expect([sse(functionCall('exec_command', { cmd: 'touch spent.txt' }), completed())]);
    const budget = ['-c', 'features.rollout_budget.enabled=true', '-c', 'features.rollout_budget.limit_tokens=50'];
    const { code, stdout } = await skein(['exec', ...budget, '--sandbox', 'workspace-write', '--json', 'Spend it.']);
    expect(code).toBe(1);
    expect(jsonLines(stdout).slice(-2)).toEqual([{ type: 'turn.started' }, { type: 'turn.failed', error: { message: 'budget reached' } }]);
    expect(existsSync(path.join(repo, 'spent.txt'))).toBe(false);
    const rollout = readdirSync(path.join(home, 'sessions'), { recursive: true, encoding: 'utf8' }).find((file) => file.endsWith('.jsonl'))!;
    const lines = readFileSync(path.join(home, 'sessions', rollout), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { payload: Record<string, unknown> });
    expect(lines.map((line) => line.payload).filter((payload) => payload.type === 'function_call_output')).toMatchObject([{ output: 'aborted before dispatch' }]);
    expect(lines.at(-1)!.payload).toMatchObject({ type: 'turn_aborted', reason: 'interrupted' });
  });

  it('answers bad input with an error line and exit 1, creating no thread', async () => {
    const unknown = await skein(['exec', 'resume', '0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d', 'hi']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: .*0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d/m);
    expect(unknown.stderr).not.toContain('    at ');
    const missingImage = await skein(['exec', '--json', '-i', 'missing.png', 'look']);
    expect(missingImage.code).toBe(1);
    expect(missingImage.stderr).toContain('error: --image');
    expect(missingImage.stdout).toBe('');
    const noThreads = await skein(['exec', 'resume', '--last', 'again']);
    expect(noThreads.code).toBe(1);
    expect(noThreads.stderr).toContain('no thread has run in');
    expect(server.requests).toHaveLength(0);
  });

  it('adds --add-dir to the writable roots config.toml already lists', async () => {
    server.expect([sse(assistantMessage('ok'), completed())]);
    const extra = path.join(scratch, 'extra');
    const data = path.join(scratch, 'data');
    mkdirSync(extra);
    mkdirSync(data);
    writeFileSync(path.join(home, 'config.toml'), `[sandbox_workspace_write]\nwritable_roots = ["${data}"]\n`, { flag: 'a' });
    const { code } = await skein(['exec', '-s', 'workspace-write', '--add-dir', extra, 'hi']);
    expect(code).toBe(0);
    const developer = server.requests[0]!.messageTexts('developer').join('\n');
    expect(developer).toContain(`\`${data}\``);
    expect(developer).toContain(`\`${extra}\``);
  });

  it('refuses to run outside a git repository unless told to', async () => {
    const outside = path.join(scratch, 'plain');
    mkdirSync(outside);
    const refused = await skein(['exec', '-C', outside, 'hi']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--skip-git-repo-check');
    expect(server.requests).toHaveLength(0);
  });
});
