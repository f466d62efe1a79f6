// Starts real app-servers for the scenarios: the built `skein-app-server` binary over stdio or
// WebSocket (a child process each), or an in-process AppServer with extra methods over either.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { loadConfig } from '@skein/config';
import { localThreadEnvironment } from '@skein/core';
import { ExtensionRegistryBuilder, type ExtensionRegistry } from '@skein/extension-api';
import { FileThreadStore } from '@skein/rollout';
import { listenWebSocket, serveStdio, type WebSocketListener } from '@skein/json-rpc';
import { AppServerTestClient } from '@skein/test-support';
import { AppServer, type AppServerOptions } from '../../src/index.js';

/** The built binary the process scenarios run. */
export const BIN = path.join(import.meta.dirname, '..', '..', 'dist', 'bin.js');
/** The capability token process servers are started with. */
export const TOKEN = 'app-server-test-token';

/** Which transport a scenario runs over. */
export type Transport = 'stdio' | 'websocket';

/** A temporary CODEX_HOME with a config.toml, and a workspace beside it. */
export interface TestHome {
  readonly home: string;
  readonly workspace: string;
  readonly tokenFile: string;
  readonly env: Record<string, string | undefined>;
  cleanup(): void;
}

/** A config.toml pointing at an unreachable mock provider (these scenarios make no model calls). */
export const CONFIG_TOML = `model_provider = "mock"
model = "gpt-5.5"
project_doc_max_bytes = 4096

[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "SKEIN_TEST_API_KEY"
request_max_retries = 0
`;

/** Makes a fresh home and workspace. */
export function makeHome(configToml: string = CONFIG_TOML): TestHome {
  const root = mkdtempSync(path.join(os.tmpdir(), 'skein-app-server-'));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  const tokenFile = path.join(root, 'token');
  mkdirSync(home);
  mkdirSync(workspace);
  writeFileSync(path.join(home, 'config.toml'), configToml);
  writeFileSync(tokenFile, `${TOKEN}\n`);
  const env = { PATH: process.env.PATH, HOME: root, CODEX_HOME: home, TERM: 'xterm' };
  return { home, workspace, tokenFile, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A running binary serving WebSocket clients. */
export interface WebSocketProcess {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `skein-app-server --listen ws://127.0.0.1:0` with `authArgs` (default: capability-token
 * auth with the token file); resolves once it listens.
 */
export async function startWebSocketProcess(home: TestHome, authArgs: readonly string[] = ['--ws-auth', 'capability-token', '--ws-token-file', home.tokenFile]): Promise<WebSocketProcess> {
  const child = spawn(process.execPath, [BIN, '--listen', 'ws://127.0.0.1:0', ...authArgs], {
    cwd: home.workspace,
    env: home.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on: (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`app-server exited with ${code} before listening:\n${stderr}`)));
  });
  return {
    url,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Spawns the binary over stdio and returns a client talking to it. */
export function spawnStdioClient(home: TestHome, extraArgs: readonly string[] = []): ReturnType<typeof AppServerTestClient.spawn> {
  return AppServerTestClient.spawn(process.execPath, [BIN, ...extraArgs], { cwd: home.workspace, env: home.env });
}

/**
 * Thread options for an in-process server on `home`: the rollout store there, this machine as the
 * (sandboxed) environment, and `extensions` (none by default).
 */
export function threadsOn(home: TestHome, extensions: ExtensionRegistry = new ExtensionRegistryBuilder().build()): NonNullable<AppServerOptions['threads']> {
  const environment = localThreadEnvironment({ cwd: home.workspace, env: home.env });
  return {
    openStore: () => FileThreadStore.open({ home: home.home, contextFragments: extensions.contextFragments }),
    environment,
    extensions: () => Promise.resolve({ registry: extensions, unreported: [] }),
    contextFragments: extensions.contextFragments,
    env: {},
    host: { shell: 'bash', timezone: 'Etc/UTC' },
    cliVersion: '0.0.0',
    release: () => environment.close(),
  };
}

/** An in-process server and a way to connect clients to it over either transport. */
export interface InProcessServer {
  readonly server: AppServer;
  connect(transport: Transport): Promise<AppServerTestClient>;
  close(): Promise<void>;
}

/** Starts an AppServer in this process (for scenarios that add methods or shrink limits). */
export async function startInProcess(home: TestHome, options: Partial<AppServerOptions> = {}): Promise<InProcessServer> {
  const config = await loadConfig({ cwd: home.workspace, env: home.env });
  const server = new AppServer({ config, configLoad: { env: home.env }, installationId: '00000000-0000-4000-8000-000000000000', ...options });
  let listener: WebSocketListener | undefined;
  const stdioSessions: Promise<void>[] = [];
  return {
    server,
    async connect(transport) {
      if (transport === 'websocket') {
        listener ??= await listenWebSocket({ host: '127.0.0.1', port: 0, server });
        return AppServerTestClient.connectWebSocket(listener.url);
      }
      const toServer = new PassThrough();
      const fromServer = new PassThrough();
      stdioSessions.push(serveStdio(server, toServer, fromServer).then(() => void fromServer.end()));
      return AppServerTestClient.overStreams(fromServer, toServer);
    },
    async close() {
      await listener?.close();
      await server.close();
      await Promise.all(stdioSessions);
    },
  };
}

/** A text user input, as turn/start takes it. */
export const textInput = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

/** Starts a turn with `prompt` and waits (up to `timeoutMs`) for its turn/completed. */
export async function runTurnToEnd(client: AppServerTestClient, threadId: string, prompt: string, timeoutMs?: number): Promise<void> {
  const { turn } = (await client.request('turn/start', { threadId, input: textInput(prompt) })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id, timeoutMs);
}
