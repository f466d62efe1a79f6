// The conformance suite against the local implementation: LocalFileSystem (sandboxed calls through the
// built fs helper) and LocalProcesses with the platform sandbox.
import path from 'node:path';
import { LocalFileSystem, LocalProcesses, PlatformSandbox, SandboxedFileSystem } from '../src/index.js';
import { describeFileSystemConformance } from './conformance/file-system-conformance.js';
import type { ConformanceTarget } from './conformance/harness.js';
import { describeProcessConformance } from './conformance/process-conformance.js';

const HELPER = path.join(import.meta.dirname, '..', 'dist', 'fs-helper.js');

const local: ConformanceTarget = {
  name: 'local',
  open() {
    const fileSystem = new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ helperPath: HELPER }) });
    const processes = new LocalProcesses({ sandbox: new PlatformSandbox() });
    return Promise.resolve({ fileSystem, processes, close: () => processes.close() });
  },
};

describeFileSystemConformance(local);
describeProcessConformance(local);
