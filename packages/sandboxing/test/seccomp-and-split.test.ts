// The seccomp wall on its own (inside a sandbox that shares the host network, so only the filter can
// refuse), the split policy's precedence under real bubblewrap, and the argv-only form for PTYs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSystemSandboxPolicy } from '@skein/protocol';
import { inlineExtraFds, prepareSandboxedSpawn, spawnSandboxed } from '../src/index.js';
import { capability, runConfined, scratch, sh, skipReason } from './sandbox-harness.js';

let box: ReturnType<typeof scratch>;
beforeEach(() => {
  box = scratch();
});
afterEach(() => box.dispose());

const socketProbe = `
const net = require('net');
const server = net.createServer((s) => s.end('unix-ok\\n')).listen('sock', () => {
  net.connect('sock').on('data', (d) => {
    process.stdout.write(String(d));
    const tcp = net.connect(9, '127.0.0.1');
    tcp.on('error', (e) => { console.log('inet ' + e.code); server.close(); });
    tcp.on('connect', () => { console.log('inet connected'); process.exit(1); });
  });
});`;

describe.skipIf(skipReason !== '')(`seccomp and split policies under bubblewrap${skipReason}`, () => {
  it('gives socket(AF_INET) EPERM while AF_UNIX sockets work, with the filter installed', async () => {
    // Whole filesystem writable, network restricted: bwrap still unshares the network, and the filter
    // is what turns socket(AF_INET) into EPERM (a bare network namespace would give ECONNREFUSED).
    const fileSystemPolicy: FileSystemSandboxPolicy = { kind: 'unrestricted', entries: [] };
    const outcome = await runConfined({ policy: { type: 'read-only' }, fileSystemPolicy, cwd: box.work }, [process.execPath, '-e', socketProbe]);
    expect(outcome.stdout).toBe('unix-ok\ninet EPERM\n');
    const status = await runConfined({ policy: { type: 'read-only' }, cwd: box.work }, sh('grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status'));
    expect(status.stdout.replace(/\t/g, ' ')).toBe('NoNewPrivs: 1\nSeccomp: 2\n');
  });

  it('applies write / deny / write along one path, most specific first', async () => {
    const repo = box.work;
    mkdirSync(path.join(repo, 'a', 'b'), { recursive: true });
    writeFileSync(path.join(repo, 'a', 'secret.txt'), 'hidden');
    writeFileSync(path.join(repo, 'a', 'b', 'visible.txt'), 'shown');
    const fileSystemPolicy: FileSystemSandboxPolicy = {
      kind: 'restricted',
      entries: [
        { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
        { path: { type: 'path', path: repo }, access: 'write' },
        { path: { type: 'path', path: path.join(repo, 'a') }, access: 'deny' },
        { path: { type: 'path', path: path.join(repo, 'a', 'b') }, access: 'write' },
      ],
    };
    const outcome = await runConfined(
      { policy: { type: 'read-only' }, fileSystemPolicy, cwd: repo },
      sh('echo top > top.txt; echo "top=$?"; cat a/secret.txt 2>/dev/null; echo "secret=$?"; echo x > a/new.txt 2>/dev/null; echo "a-write=$?"; cat a/b/visible.txt; echo; echo deep > a/b/deep.txt; echo "deep=$?"; ls a 2>/dev/null; echo "list=$?"'),
    );
    expect(outcome.stdout).toBe('top=0\nsecret=1\na-write=2\nshown\ndeep=0\nlist=2\n');
    expect(readFileSync(path.join(repo, 'a', 'b', 'deep.txt'), 'utf8')).toBe('deep\n');
    expect(readFileSync(path.join(repo, 'a', 'secret.txt'), 'utf8')).toBe('hidden');
  });

  it('runs the argv-only form (seccomp bytes carried through /bin/sh) with stdin intact', async () => {
    const prepared = await prepareSandboxedSpawn({ policy: { type: 'read-only' }, cwd: box.work, env: process.env }, sh('read line; echo "got $line"; grep "^Seccomp:" /proc/self/status'), { capability });
    const spec = inlineExtraFds(prepared);
    expect(spec.extraFds).toEqual([]);
    expect(spec.argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    const child = spawnSandboxed(spec, { cwd: box.work, env: process.env });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin?.end('hello\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout.replace(/\t/g, ' ')).toBe('got hello\nSeccomp: 2\n');
  });
});
