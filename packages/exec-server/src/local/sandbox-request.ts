// Turns the wire sandbox context (a permission profile with `file:` URI paths) into @skein/sandboxing's
// request: the split filesystem policy with native paths, plus a legacy policy that carries the network.
import type { FileSystemSandboxEntry, FileSystemSandboxPolicy } from '@skein/protocol/executor';
import { SandboxUnavailableError, type SandboxRequest } from '@skein/sandboxing';
import { FileSystemError } from '../file-system-error.js';
import type { ExecFileSystemSandboxEntry, FileSystemSandboxContext } from '../sandbox-context.js';
import { toNativePath } from './native-path.js';

function nativeEntry(entry: ExecFileSystemSandboxEntry): FileSystemSandboxEntry {
  const access = entry.access === 'none' ? 'deny' : entry.access;
  const missing = entry.missing_path_behavior === 'skip' ? { missing_path_behavior: 'skip' as const } : {};
  switch (entry.path.type) {
    case 'path':
      return { path: { type: 'path', path: toNativePath(entry.path.path) }, access, ...missing };
    case 'glob_pattern':
      return { path: { type: 'glob_pattern', pattern: entry.path.pattern }, access, ...missing };
    case 'special': {
      const value = entry.path.value;
      // Codex's older spelling of the project root.
      const special = value.kind === 'current_working_directory' ? { kind: 'project_roots' as const } : value;
      return { path: { type: 'special', value: special }, access, ...missing };
    }
  }
}

/** What a request needs besides the context. */
export interface SandboxRequestInputs {
  /** The working directory when the context names none. */
  readonly fallbackCwd: string;
  /** The confined program's environment (its TMPDIR resolves `tmpdir` entries). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Paths the confined program must be able to read on top of the policy (the helper's own files). */
  readonly extraReadable?: readonly string[] | undefined;
}

/** The @skein/sandboxing request for `context`. */
export function toSandboxRequest(context: FileSystemSandboxContext, inputs: SandboxRequestInputs): SandboxRequest {
  const cwd = context.cwd == null ? inputs.fallbackCwd : toNativePath(context.cwd);
  const { permissions } = context;
  switch (permissions.type) {
    case 'disabled':
      return { policy: { type: 'danger-full-access' }, cwd, env: inputs.env };
    case 'external':
      return { policy: { type: 'external-sandbox', network_access: permissions.network }, cwd, env: inputs.env };
    case 'managed': {
      const networkAccess = permissions.network === 'enabled';
      const fileSystem = permissions.file_system;
      let fileSystemPolicy: FileSystemSandboxPolicy;
      if (fileSystem.type === 'unrestricted') {
        fileSystemPolicy = { kind: 'unrestricted', entries: [] };
      } else {
        const extra = (inputs.extraReadable ?? []).map(
          (path): FileSystemSandboxEntry => ({ path: { type: 'path', path }, access: 'read' }),
        );
        fileSystemPolicy = {
          kind: 'restricted',
          entries: [...fileSystem.entries.map(nativeEntry), ...extra],
          ...(fileSystem.glob_scan_max_depth == null ? {} : { glob_scan_max_depth: fileSystem.glob_scan_max_depth }),
        };
      }
      // With a split policy present, the legacy policy only decides the network.
      return { policy: { type: 'read-only', network_access: networkAccess }, fileSystemPolicy, cwd, env: inputs.env };
    }
  }
}

/** Maps a thrown sandboxing error to the executor's own error class, keeping its reason and remedy. */
export function sandboxFailure(error: unknown): FileSystemError | undefined {
  if (error instanceof SandboxUnavailableError) {
    return new FileSystemError('SandboxUnavailable', error.message);
  }
  return undefined;
}
