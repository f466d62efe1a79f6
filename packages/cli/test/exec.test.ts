// `skein exec` as a user (or @openai/codex-sdk) runs it: the built binary, a real home directory with
// config.toml pointing at the mock Responses server, and a git repository as the working directory.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExecEvent } from '@skein/protocol';
import { assistantMessage, completed, httpError, reasoningItem, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.js');

let scratch: string;
let home: string;
let repo: string;
let server: MockResponsesServer;

beforeEach(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-exec-'));
  home = path.join(scratch, 'home');
  repo = path.join(scratch, 'repo');
  mkdirSync(home);
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  server = await startMockResponsesServer();
  writeFileSync(
    path.join(home, 'config.toml'),
    `model_provider = "mock"\n[model_providers.mock]\nname = "Mock"\nbase_url = "${server.url}"\nenv_key = "MOCK_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n`,
  );
});
afterEach(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

function skein(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: repo, env: { PATH: process.env.PATH, CODEX_HOME: home, MOCK_API_KEY: 'sk-mock', TZ: 'UTC' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const jsonLines = (stdout: string) => stdout.trimEnd().split('\n').map((line) => ExecEvent.parse(JSON.parse(line)));

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
