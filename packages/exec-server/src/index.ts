// @skein/exec-server — the executor's filesystem and processes, local and served. Re-exports only.

export { FileMetadata, ReadDirectoryEntry, WalkEntry, WalkError, WalkOptions, WalkOutcome } from './file-system.js';
export type {
  CopyOptions,
  CreateDirectoryOptions,
  ExecutorFileSystem,
  FileSystemCallOptions,
  GetMetadataOptions,
  RemoveOptions,
} from './file-system.js';
export { FileSystemError, FileSystemErrorCode } from './file-system-error.js';
export type { BlockReader, BlockReaderSource, FileBlock } from './block-reader.js';

export { ExecEnvPolicy, ProcessError, ProcessErrorCode, ProcessSignal, ProcessStream, SandboxType, TerminalSize, WriteStatus } from './process-api.js';
export type {
  ExecutorProcesses,
  ProcessEvent,
  ProcessOutputChunk,
  ProcessReadResult,
  ReadProcessOptions,
  StartProcessParams,
  StartProcessResult,
} from './process-api.js';

export {
  ExecFileSystemPath,
  ExecFileSystemSandboxEntry,
  ExecManagedFileSystemPermissions,
  ExecPermissionProfile,
  FileSystemAccess,
  FileSystemSandboxContext,
  FileSystemSpecialPath,
  NetworkSandboxPolicy,
  WindowsSandboxLevel,
  sandboxConfinesProcess,
  sandboxRestricts,
} from './sandbox-context.js';
export type { FileSystemSandboxContextInput } from './sandbox-context.js';

export {
  DEFAULT_CONCURRENT_REQUESTS,
  DEFAULT_KEEPALIVE_INTERVAL_MS,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_RETAINED_OUTPUT_BYTES,
  FILE_READ_CHUNK_BYTES,
  MAX_FILE_HANDLE_ID_BYTES,
  MAX_OPEN_FILE_HANDLES,
  MAX_QUEUED_REQUESTS,
  MAX_READ_DIRECTORY_ENTRIES,
  MAX_READ_FILE_BYTES,
  MAX_READ_WAIT_MS,
  MAX_RETAINED_OUTPUT_BYTES,
  MAX_RUNNING_PROCESSES,
  MAX_WALK_DEPTH,
  MAX_WALK_DIRECTORIES,
  MAX_WALK_ENTRIES,
  MAX_WALK_RESPONSE_BYTES,
} from './limits.js';

export { LocalFileSystem } from './local/local-file-system.js';
export type { LocalFileSystemOptions } from './local/local-file-system.js';
export { SandboxedFileSystem } from './local/sandboxed-file-system.js';
export type { SandboxedFileSystemOptions } from './local/sandboxed-file-system.js';
export { LocalProcesses } from './local/local-processes.js';
export type { LocalProcessesOptions, ProcessSandbox, SandboxedSpawn } from './local/local-processes.js';
export { PlatformSandbox } from './local/platform-sandbox.js';

export { ExecServerErrorCode } from './protocol/exec-server-error-code.js';
export { EnvironmentInfo, ExecServerMethod, ExecServerNotification } from './protocol/messages.js';

export { ExecServer } from './server/exec-server.js';
export type { ExecServerOptions } from './server/exec-server.js';
export type { ExecServerConnection } from './server/exec-server-connection.js';
export { EXEC_SERVER_PROTOCOL_VERSION } from './server/environment-info.js';
export { ExecServerSettingsError, createLocalExecServer, parseExecServerArgs, runExecServer } from './run-exec-server.js';
export type { ExecServerIo, ExecServerSettings } from './run-exec-server.js';

export { ExecServerClient, MAX_CLIENT_MESSAGE_BYTES } from './remote/exec-server-client.js';
export type { StdioConnectOptions, WebSocketConnectOptions } from './remote/exec-server-client.js';
export { ExecServerClientError } from './remote/exec-server-client-error.js';
export type { ExecServerClientErrorCode } from './remote/exec-server-client-error.js';
export { RemoteFileSystem } from './remote/remote-file-system.js';
export { RemoteProcesses } from './remote/remote-processes.js';
export { connectExecServer, spawnExecServer } from './remote/connect-exec-server.js';
export type { RemoteExecutor } from './remote/connect-exec-server.js';
