// A remote executor that is really elsewhere: a `skein-exec-server` in a network namespace the test
// creates (its own interfaces, reached over a veth pair), not started by the app-server, behind a
// TLS-terminating proxy in that namespace — the deployment docs/deployment.md describes. The
// app-server attaches it with `environment/add` over `wss://` with a bearer token; the model's
// command runs in that namespace. The refusals: a token over plain `ws://` to that non-loopback
// address (refused before any connection), and a wrong token (refused by the executor over
// `wss://`). Needs root, `ip` and `openssl`.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';
import { EXEC_SERVER_BIN, EXEC_TOKEN } from './support/exec-servers.js';

const has = (command: string, args: readonly string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const NO_NETNS =
  process.getuid?.() !== 0 ? 'creating a network namespace needs root' : !has('ip', ['-V']) ? 'needs `ip` (iproute2)' : !has('openssl', ['version']) ? 'needs `openssl` for the proxy certificate' : undefined;

/** The proxy: TLS on the namespace's veth address, forwarded to the exec-server on its loopback. */
const PROXY = `
import net from 'node:net';
import tls from 'node:tls';
import { readFileSync } from 'node:fs';
const [host, port, target, key, cert] = process.argv.slice(2);
tls.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (socket) => {
  const upstream = net.connect(Number(target), '127.0.0.1');
  socket.pipe(upstream).pipe(socket);
  const end = () => { socket.destroy(); upstream.destroy(); };
  socket.on('error', end); upstream.on('error', end);
}).listen(Number(port), host, () => console.log('ready'));
`;

let namespace: string;
let address: string;
let root: string;
let wssUrl: string;
const children: ChildProcess[] = [];
let model: MockResponsesServer;
let home: TestHome;
let client: AppServerTestClient;

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** Starts `argv` inside the namespace and waits for its first stdout line. */
async function inNamespace(argv: readonly string[]): Promise<string> {
  const child = spawn('ip', ['netns', 'exec', namespace, ...argv], { cwd: root, env: { PATH: process.env.PATH, HOME: root }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return line.trim();
}

describe.skipIf(NO_NETNS !== undefined)(`an executor in a network namespace of its own${NO_NETNS === undefined ? '' : ` (skipped: ${NO_NETNS})`}`, () => {
  beforeAll(async () => {
    const tag = `${process.pid % 10_000}${randomInt(100, 1000)}`;
    namespace = `skein-test-${tag}`;
    const subnet = randomInt(1, 255);
    address = `10.231.${subnet}.2`;
    root = mkdtempSync(path.join('/var/tmp', 'skein-netns-'));
    ip('netns', 'add', namespace);
    ip('link', 'add', `sk${tag}h`, 'type', 'veth', 'peer', 'name', `sk${tag}n`);
    ip('link', 'set', `sk${tag}n`, 'netns', namespace);
    ip('addr', 'add', `10.231.${subnet}.1/30`, 'dev', `sk${tag}h`);
    ip('link', 'set', `sk${tag}h`, 'up');
    ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${address}/30`, 'dev', `sk${tag}n`);
    ip('netns', 'exec', namespace, 'ip', 'link', 'set', `sk${tag}n`, 'up');
    ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');
    const [key, cert, tokenFile, proxy] = ['key.pem', 'cert.pem', 'token', 'proxy.mjs'].map((name) => path.join(root, name)) as [string, string, string, string];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=skein-netns-test', '-addext', `subjectAltName=IP:${address}`], { stdio: 'ignore' });
    writeFileSync(tokenFile, `${EXEC_TOKEN}\n`);
    writeFileSync(proxy, PROXY);
    mkdirSync(path.join(root, 'work'));
    const execUrl = await inNamespace([process.execPath, EXEC_SERVER_BIN, '--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', tokenFile]);
    expect(await inNamespace([process.execPath, proxy, address, '8443', new URL(execUrl).port, key, cert])).toBe('ready');
    wssUrl = `wss://${address}:8443`;

    model = await startMockResponsesServer();
    home = makeHome(mockProviderConfigToml(model.url));
    // The app-server trusts the proxy's certificate as it would a deployment's own CA.
    client = spawnStdioClient({ ...home, env: { ...home.env, NODE_EXTRA_CA_CERTS: cert } });
    await client.initialize();
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    for (const child of children.splice(0)) child.kill();
    await model?.close();
    home?.cleanup();
    // Deleting the namespace removes its end of the veth pair, and with it the host's end.
    if (namespace !== undefined) spawnSync('ip', ['netns', 'del', namespace]);
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it('refuses a token over plain ws:// to it, and a wrong token over wss://', async () => {
    const plain = await client.requestReply('environment/add', { environmentId: 'elsewhere', execServerUrl: `ws://${address}:8443`, authBearerToken: EXEC_TOKEN });
    expect(plain).toMatchObject({ error: { data: { environmentId: 'elsewhere', reason: 'insecureToken' } } });
    const wrong = await client.requestReply('environment/add', { environmentId: 'elsewhere', execServerUrl: wssUrl, authBearerToken: 'not-the-token' });
    expect(wrong).toMatchObject({ error: { data: { environmentId: 'elsewhere', reason: 'unauthorized' } } });
    expect(await client.request('environment/status', { environmentId: 'elsewhere' })).toMatchObject({ status: 'unknown' });
  });

  it('runs the model’s command in that namespace, reached over wss:// with the token', async () => {
    expect(await client.request('environment/add', { environmentId: 'elsewhere', execServerUrl: wssUrl, authBearerToken: EXEC_TOKEN, connectTimeoutMs: 20_000 })).toEqual({});
    model.expect([
      sse(functionCall('exec_command', { cmd: 'readlink /proc/self/ns/net; cat /sys/class/net/*/address | wc -l' }, { callId: 'call_where' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const cwd = path.join(root, 'work');
    const { thread } = (await client.request('thread/start', { cwd, approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'elsewhere', cwd }] })) as { thread: { id: string } };
    const { turn } = (await client.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'Where are you?', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id, 30_000);
    // The namespace's identity, as the kernel names it, and its two interfaces (lo and its veth end).
    const inside = execFileSync('ip', ['netns', 'exec', namespace, 'readlink', '/proc/self/ns/net']).toString().trim();
    expect(inside).not.toBe(readlinkSync('/proc/self/ns/net'));
    expect(model.requests[1]!.toolOutputText('call_where')).toMatch(new RegExp(`Output:\\n${inside.replace(/[[\]]/g, '\\$&')}\\n2\\n$`));
    expect(client.schemaFailures).toEqual([]);
  });
});
