// @openai/codex-sdk, unchanged, driving the skein binary through `codexPathOverride`: a client
// written for Codex runs threads against Skein.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Codex } from '@openai/codex-sdk';
import { assistantMessage, completed, held, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.cjs');

let scratch: string;
let home: string;
let repo: string;
let launcher: string;
let server: MockResponsesServer;

beforeEach(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-sdk-'));
  home = path.join(scratch, 'home');
  repo = path.join(scratch, 'repo');
  mkdirSync(home);
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  // The SDK spawns an executable; this one runs the built CLI with the Node running the tests.
  launcher = path.join(scratch, 'skein');
  writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(launcher, 0o755);
  server = await startMockResponsesServer();
  writeFileSync(path.join(home, 'config.toml'), `model_provider = "mock"\nmodel = "gpt-5.5"\n[model_providers.mock]\nname = "Mock"\nbase_url = "${server.url}"\nrequest_max_retries = 0\n`);
});
afterEach(async () => {
  // Closing verifies the mock model: no unexpected request, no unused response.
  try {
    await server.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

describe('@openai/codex-sdk against skein', () => {
  it('runs a thread, then continues it, with the flags the SDK passes', async () => {
    server.expect([sse(assistantMessage('Hi from Skein.'), completed()), sse(assistantMessage('Still here.'), completed())]);
    const codex = new Codex({ codexPathOverride: launcher, env: { PATH: process.env.PATH ?? '', CODEX_HOME: home, TZ: 'UTC' } });
    const thread = codex.startThread({ workingDirectory: repo, sandboxMode: 'workspace-write', model: 'gpt-5.5', approvalPolicy: 'never' });

    const first = await thread.run('Say hi.');
    expect(first.finalResponse).toBe('Hi from Skein.');
    expect(first.items).toEqual([{ id: 'item_0', type: 'agent_message', text: 'Hi from Skein.' }]);
    expect(first.usage).toMatchObject({ input_tokens: expect.any(Number) as number, output_tokens: expect.any(Number) as number });
    expect(thread.id).toMatch(/^[0-9a-f-]{36}$/);

    const second = await thread.run('Are you there?');
    expect(second.finalResponse).toBe('Still here.');
    expect(server.requests[1]!.messageTexts('user').slice(-2)).toEqual(['Say hi.', 'Are you there?']);
    expect(server.requests[0]!.messageTexts('developer').some((text) => text.includes('workspace-write'))).toBe(true);
    server.verify();
  });

  // Issue #35: the SDK kills exec with SIGTERM; a `turn.failed` line before the exit made it report
  // a failed turn instead of raising AbortError.
  it('raises AbortError when the signal aborts a running turn', async () => {
    let release!: () => void;
    server.expect([held(sse(assistantMessage('Too late.'), completed()), { before: 'start', until: new Promise<void>((resolve) => (release = resolve)) })]);
    const codex = new Codex({ codexPathOverride: launcher, env: { PATH: process.env.PATH ?? '', CODEX_HOME: home, TZ: 'UTC' } });
    const thread = codex.startThread({ workingDirectory: repo, skipGitRepoCheck: true });
    const controller = new AbortController();
    const running = thread.run('Take your time.', { signal: controller.signal });
    for (let waited = 0; server.requests.length === 0 && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    release();
  });

  it('streams events as the SDK types them', async () => {
    server.expect([sse(assistantMessage('Streaming.'), completed())]);
    const codex = new Codex({ codexPathOverride: launcher, env: { PATH: process.env.PATH ?? '', CODEX_HOME: home } });
    const { events } = await codex.startThread({ workingDirectory: repo }).runStreamed('Stream please.');
    const types: string[] = [];
    for await (const event of events) types.push(event.type);
    expect(types).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
  });
});
