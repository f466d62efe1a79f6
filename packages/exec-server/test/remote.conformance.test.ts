// The same conformance suite against the remote client, talking over WebSocket (with a capability
// token) to a real `skein-exec-server` process started from the built package.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { connectExecServer } from '../src/index.js';
import { describeFileSystemConformance } from './conformance/file-system-conformance.js';
import type { ConformanceTarget } from './conformance/harness.js';
import { describeProcessConformance } from './conformance/process-conformance.js';
import { startServer, type RunningServer } from './exec-server-process.js';

const token = randomBytes(24).toString('hex');
let server: RunningServer;
let tokenDir: string;
beforeAll(async () => {
  tokenDir = mkdtempSync(path.join(tmpdir(), 'skein-token-'));
  const tokenFile = path.join(tokenDir, 'token');
  writeFileSync(tokenFile, `${token}\n`);
  server = await startServer(['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', tokenFile]);
});
afterAll(async () => {
  await server.stop();
  rmSync(tokenDir, { recursive: true, force: true });
});

const remote: ConformanceTarget = {
  name: 'remote over WebSocket',
  async open() {
    const executor = await connectExecServer({ url: server.url, token, clientName: 'skein-conformance' });
    return {
      fileSystem: executor.fileSystem,
      processes: executor.processes,
      close: async () => {
        await executor.processes.close();
        await executor.close();
      },
    };
  },
};

describeFileSystemConformance(remote);
describeProcessConformance(remote);
