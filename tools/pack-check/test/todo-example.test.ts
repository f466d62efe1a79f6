// examples/todo-extension as a team outside Skein would use it: copied out of the repository,
// installed with npm from the packed tarballs alone, built and tested there, then loaded into the
// installed `skein exec --extension` against the mock model, resumed, and checked: the todo list and
// its world state survive the resume, the model is shown only the change, and no module Node loads
// comes from the workspace.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppServerTestClient, assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installExample, run, SETUP_TIMEOUT_MS } from './example-install.js';

/** Writes every ESM module Node resolves (one URL per line) to $SKEIN_MODULE_LOG. */
const RECORD_MODULES = `
import { register } from 'node:module';
const hooks = \`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.SKEIN_MODULE_LOG, result.url + '\\\\n');
  return result;
}\`;
register('data:text/javascript,' + encodeURIComponent(hooks));
`;

let scratch: string;
let example: string;
let home: string;
let moduleLog: string;
let model: MockResponsesServer;

beforeAll(async () => {
  // realpath: the module URLs Node reports are real paths, and tmpdir may be a symlink.
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-todo-example-')));
  example = await installExample('todo-extension', scratch);

  home = path.join(scratch, 'home');
  mkdirSync(home);
  moduleLog = path.join(scratch, 'modules.log');
  writeFileSync(path.join(scratch, 'record-modules.mjs'), RECORD_MODULES);
  model = await startMockResponsesServer();
  writeFileSync(path.join(home, 'config.toml'), mockProviderConfigToml(model.url, { envKey: 'MOCK_API_KEY' }));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  try {
    await model?.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

/** The environment the installed `skein` runs with: the scratch home, and every module it loads recorded. */
const skeinEnv = () => ({
  PATH: process.env.PATH,
  HOME: scratch,
  CODEX_HOME: home,
  MOCK_API_KEY: 'sk-mock',
  NODE_OPTIONS: `--import=${path.join(scratch, 'record-modules.mjs')}`,
  SKEIN_MODULE_LOG: moduleLog,
});

const SKEIN = () => path.join(example, 'node_modules', '.bin', 'skein');

/** Runs the installed `skein` in the example's folder, with stdin closed (exec reads piped input), and waits for it to succeed. */
function skein(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(SKEIN(), [...args], { cwd: example, env: skeinEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`skein ${args.join(' ')} exited with ${code}:\n${stderr}`))));
  });
}

/** Every module file Node resolved so far, none of which may be the workspace's. */
function loadedModules(): string[] {
  return readFileSync(moduleLog, 'utf8').split('\n').filter((url) => url.startsWith('file:'));
}

describe('examples/todo-extension, installed from the packed tarballs outside the workspace', () => {
  it('passes its own tests (node --test, with @skein/test-support)', async () => {
    const { stdout } = await run('npm', ['test'], { cwd: example });
    expect(stdout).toMatch(/# fail 0/);
    expect(stdout).toMatch(/# pass [1-9]/);
  });

  it('runs in skein exec --extension, keeps its state across exec resume, and shows the model only the change', async () => {
    model.expect([sse(functionCall('todo_add', { text: 'buy milk' }, { callId: 'call_milk' }), completed()), sse(assistantMessage('Added.'), completed())]);
    const first = await skein(['exec', '--skip-git-repo-check', '--extension', './dist/src/index.js', 'Remind me to buy milk.']);
    expect(first.stderr).not.toContain('warning');
    expect(model.requests[0]!.toolNames()).toEqual(expect.arrayContaining(['todo_add', 'todo_done']));
    expect(model.requests[1]!.toolOutputText('call_milk')).toBe('Added "buy milk" (1 open, 0 done).');

    model.expect([sse(assistantMessage('Buy milk.'), completed())]);
    await skein(['exec', '--skip-git-repo-check', '--extension', './dist/src/index.js', 'resume', '--last', "What's on my list?"]);
    const resumed = JSON.stringify(model.requests[2]!.body!.input);
    // The list came back from the rollout, and the model is told about it once, as a change.
    expect(resumed.split('+ [ ] buy milk').length - 1).toBe(1);
    // The thread's fragment was recorded with the first turn and is not sent again.
    expect(resumed.split('<todo_instructions>').length - 1).toBe(1);

    model.expect([sse(functionCall('todo_done', { text: 'buy milk' }, { callId: 'call_bought' }), completed()), sse(assistantMessage('Done.'), completed())]);
    await skein(['exec', '--skip-git-repo-check', '--extension', './dist/src/index.js', 'resume', '--last', 'I bought it.']);
    expect(model.requests[4]!.toolOutputText('call_bought')).toBe('Done: "buy milk" (0 open, 1 done).');
    // Nothing changed between the last turn and this one's start, so no new <todos> message.
    expect(JSON.stringify(model.requests[3]!.body!.input).split('Changes to the todo list').length - 1).toBe(1);

    const modules = loadedModules();
    expect(modules.length).toBeGreaterThan(0);
    expect(modules.filter((url) => !url.startsWith(`file://${scratch}/`))).toEqual([]);
    expect(modules).toContain(`file://${example}/dist/src/index.js`);
  });

  it('is loaded by the installed app-server from config.toml, and its tool runs in an app-server turn', async () => {
    writeFileSync(path.join(home, 'config.toml'), `${mockProviderConfigToml(model.url, { envKey: 'MOCK_API_KEY' })}\n[skein]\nextensions = [${JSON.stringify(path.join(example, 'dist', 'src', 'index.js'))}]\n`);
    const client = AppServerTestClient.spawn(SKEIN(), ['app-server'], { cwd: example, env: skeinEnv() });
    try {
      await client.initialize();
      expect(client.notificationsOf('configWarning')).toEqual([]);
      const { thread } = (await client.request('thread/start', { cwd: example, approvalPolicy: 'never' })) as { thread: { id: string } };
      const before = model.requests.length;
      model.expect([sse(functionCall('todo_add', { text: 'buy eggs' }, { callId: 'call_eggs' }), completed()), sse(assistantMessage('Added.'), completed())]);
      const { turn } = (await client.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'Remind me to buy eggs.', text_elements: [] }] })) as { turn: { id: string } };
      await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
      expect(model.requests[before]!.toolNames()).toContain('todo_add');
      expect(model.requests[before + 1]!.toolOutputText('call_eggs')).toBe('Added "buy eggs" (1 open, 0 done).');
    } finally {
      await client.close();
    }
    expect(loadedModules().filter((url) => !url.startsWith(`file://${scratch}/`))).toEqual([]);
  });
});
