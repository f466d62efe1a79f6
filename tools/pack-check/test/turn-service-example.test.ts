// examples/turn-service, the host API's example, installed from the packed tarballs outside the
// workspace: its own tests pass there, and the installed service, started as a process, streams a
// turn against the mock model and refuses to start without a token.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installExample, run, SETUP_TIMEOUT_MS } from './example-install.js';

const TOKEN = 'pack-check-token-0123456789';
let scratch: string;
let example: string;
let home: string;
let model: MockResponsesServer;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-turn-service-')));
  example = await installExample('turn-service', scratch);
  home = path.join(scratch, 'home');
  mkdirSync(home);
  model = await startMockResponsesServer();
  writeFileSync(path.join(home, 'config.toml'), mockProviderConfigToml(model.url));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  try {
    await model?.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

/** Starts the installed service; resolves with its URL once it listens. */
function startService(env: Record<string, string | undefined>): { child: ChildProcess; url: Promise<string>; exit: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [path.join(example, 'dist', 'src', 'main.js')], { cwd: example, env: { PATH: process.env.PATH, HOME: scratch, CODEX_HOME: home, PORT: '0', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = new Promise<string>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  return { child, url, exit };
}

describe('examples/turn-service, installed from the packed tarballs outside the workspace', () => {
  it('passes its own tests (node --test, against @skein/test-support)', async () => {
    // A failure shows the example's own test output.
    const { stdout } = await run('npm', ['test'], { cwd: example }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`npm test failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    expect(stdout).toMatch(/# fail 0/);
    expect(stdout).toMatch(/# pass [1-9]/);
  });

  it('runs as a process: streams a turn over SSE, and will not start without a token', async () => {
    const refused = startService({});
    expect((await refused.exit).code).toBe(2);
    expect((await refused.exit).stderr).toMatch(/TURN_SERVICE_TOKEN/);

    const service = startService({ TURN_SERVICE_TOKEN: TOKEN });
    try {
      const url = await service.url;
      model.expect([sse(assistantMessage('Hello from the service.'), completed())]);
      const response = await fetch(`${url}/turns`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'hello' }) });
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(body).toMatch(/^event: thread\n/);
      expect(body).toContain('event: turn/completed\n');
      expect(body).toMatch(/event: result\ndata: \{[^\n]*"finalResponse":"Hello from the service\."/);
      expect(JSON.stringify(model.requests.at(-1)!.body!.input)).toContain('hello');
    } finally {
      service.child.kill('SIGTERM');
      await service.exit;
    }
  });
});
