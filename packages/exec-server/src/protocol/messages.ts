// The exec-server's JSON-RPC methods as Codex 0.171.0 names them, with zod schemas for their params,
// results and notifications. Unknown members are ignored, as Codex's serde structs do.
import { PathUriString, lazySchema } from '@skein/protocol/executor';
import * as z from 'zod';
import { FileMetadata, ReadDirectoryEntry, WalkOptions, WalkOutcome } from '../file-system.js';
import { ExecEnvPolicy, ProcessSignal, ProcessStream, SandboxType, TerminalSize, WriteStatus } from '../process-api.js';
import { FileSystemSandboxContext } from '../sandbox-context.js';
import { Base64Bytes } from './base64-bytes.js';

/** The longest process id accepted: a caller's handle, not data. */
export const MAX_PROCESS_ID_CHARS = 256;

/** Every request method the server answers. */
export const ExecServerMethod = {
  Initialize: 'initialize',
  EnvironmentInfo: 'environment/info',
  FsGetMetadata: 'fs/getMetadata',
  FsReadFile: 'fs/readFile',
  FsWriteFile: 'fs/writeFile',
  FsReadDirectory: 'fs/readDirectory',
  FsCreateDirectory: 'fs/createDirectory',
  FsCopy: 'fs/copy',
  FsRemove: 'fs/remove',
  FsCanonicalize: 'fs/canonicalize',
  FsWalk: 'fs/walk',
  FsOpen: 'fs/open',
  FsReadBlock: 'fs/readBlock',
  FsClose: 'fs/close',
  ProcessStart: 'process/start',
  ProcessRead: 'process/read',
  ProcessWrite: 'process/write',
  ProcessSignal: 'process/signal',
  ProcessTerminate: 'process/terminate',
  /** Skein's addition: Codex 0.171.0 answers it with "method not found". */
  ProcessResize: 'process/resize',
} as const;
export type ExecServerMethod = (typeof ExecServerMethod)[keyof typeof ExecServerMethod];

/** Notification methods: `initialized` from the client; the `process/*` ones from the server. */
export const ExecServerNotification = {
  Initialized: 'initialized',
  ProcessOutput: 'process/output',
  ProcessExited: 'process/exited',
  ProcessClosed: 'process/closed',
} as const;

// A function, not a value: each params schema that has one builds it when that schema is first used.
const sandbox = () => ({ sandbox: FileSystemSandboxContext.nullish() });
const Empty = lazySchema(() => z.object({}));

export const InitializeParams = lazySchema(() => z.object({ clientName: z.string(), resumeSessionId: z.string().nullish() }));
export type InitializeParams = z.infer<typeof InitializeParams>;

/** The shell the executor would run commands with. */
export const ShellInfo = lazySchema(() => z.object({ name: z.string(), path: z.string() }));

/** What the executor reports about the machine it runs on. */
export const EnvironmentInfo = lazySchema(() => z.object({
  shell: ShellInfo,
  executorVersion: z.string(),
  providerId: z.string(),
  cwd: z.string().nullish(),
  userHomeDir: z.string().nullish(),
  platformOs: z.string(),
  // Codex's Windows executor leaves it out when it has none to add.
  prependPathDirs: z.array(z.string()).default([]),
  temporaryDirectories: z.array(z.string()),
  tempDir: z.string().nullish(),
  capabilities: z.record(z.string(), z.boolean()),
}));
export type EnvironmentInfo = z.infer<typeof EnvironmentInfo>;

export const InitializeResponse = lazySchema(() => z.object({ sessionId: z.string(), environmentInfo: EnvironmentInfo }));
export type InitializeResponse = z.infer<typeof InitializeResponse>;

export const FsPathParams = lazySchema(() => z.object({ path: PathUriString, ...sandbox() }));
export const FsGetMetadataParams = lazySchema(() => z.object({ path: PathUriString, followSymlinks: z.boolean().nullish(), ...sandbox() }));
export const FsReadFileResponse = lazySchema(() => z.object({ dataBase64: Base64Bytes }));
export const FsWriteFileParams = lazySchema(() => z.object({ path: PathUriString, dataBase64: Base64Bytes, ...sandbox() }));
export const FsReadDirectoryResponse = lazySchema(() => z.object({ entries: z.array(ReadDirectoryEntry) }));
export const FsCreateDirectoryParams = lazySchema(() => z.object({ path: PathUriString, recursive: z.boolean().nullish(), ...sandbox() }));
export const FsCopyParams = lazySchema(() => z.object({ sourcePath: PathUriString, destinationPath: PathUriString, recursive: z.boolean(), ...sandbox() }));
export const FsRemoveParams = lazySchema(() => z.object({ path: PathUriString, recursive: z.boolean().nullish(), force: z.boolean().nullish(), ...sandbox() }));
export const FsCanonicalizeResponse = lazySchema(() => z.object({ path: PathUriString }));
export const FsWalkParams = lazySchema(() => z.object({ path: PathUriString, options: WalkOptions, ...sandbox() }));
export { FileMetadata as FsGetMetadataResponse, WalkOutcome as FsWalkResponse };

export const FsOpenParams = lazySchema(() => z.object({ handleId: z.string(), path: PathUriString, ...sandbox() }));
export const FsOpenResponse = lazySchema(() => z.object({ handleId: z.string() }));
export const FsReadBlockParams = lazySchema(() => z.object({ handleId: z.string(), offset: z.number().int().nonnegative(), len: z.number().int() }));
export const FsReadBlockResponse = lazySchema(() => z.object({ chunk: Base64Bytes, eof: z.boolean() }));
export const FsCloseParams = lazySchema(() => z.object({ handleId: z.string() }));
export { Empty as EmptyResponse };

export { ExecEnvPolicy };

export const ProcessStartParams = lazySchema(() => z.object({
  processId: z.string().max(MAX_PROCESS_ID_CHARS),
  argv: z.array(z.string()),
  cwd: PathUriString,
  envPolicy: ExecEnvPolicy.nullish(),
  env: z.record(z.string(), z.string()),
  tty: z.boolean(),
  pipeStdin: z.boolean().nullish(),
  arg0: z.string().nullish(),
  ...sandbox(),
  enforceManagedNetwork: z.boolean().nullish(),
  managedNetwork: z.unknown().optional(),
  /** Skein's addition: bytes of output retained for `process/read`. */
  outputByteCap: z.number().int().nullish(),
  /** Skein's addition: the initial terminal size for `tty`. */
  size: TerminalSize.nullish(),
}));
export type ProcessStartParams = z.infer<typeof ProcessStartParams>;
export const ProcessStartResponse = lazySchema(() => z.object({ processId: z.string(), sandboxType: SandboxType }));

export const ProcessReadParams = lazySchema(() => z.object({
  processId: z.string(),
  afterSeq: z.number().int().nonnegative().nullish(),
  maxBytes: z.number().int().nonnegative().nullish(),
  waitMs: z.number().int().nonnegative().nullish(),
}));
export const ProcessOutputChunkWire = lazySchema(() => z.object({ seq: z.number().int(), stream: ProcessStream, chunk: Base64Bytes }));
export const ProcessReadResponse = lazySchema(() => z.object({
  chunks: z.array(ProcessOutputChunkWire),
  nextSeq: z.number().int(),
  exited: z.boolean(),
  exitCode: z.number().int().nullable(),
  /** Skein's addition, present when a signal ended the process. */
  signal: z.string().nullish().transform((value) => value ?? null),
  closed: z.boolean(),
  failure: z.string().nullable(),
  sandboxDenied: z.boolean().default(false),
}));
export const ProcessWriteParams = lazySchema(() => z.object({ processId: z.string(), chunk: Base64Bytes, writeId: z.string() }));
export const ProcessWriteResponse = lazySchema(() => z.object({ status: WriteStatus }));
export const ProcessSignalParams = lazySchema(() => z.object({ processId: z.string(), signal: ProcessSignal }));
export const ProcessIdParams = lazySchema(() => z.object({ processId: z.string() }));
export const ProcessTerminateResponse = lazySchema(() => z.object({ running: z.boolean() }));
export const ProcessResizeParams = lazySchema(() => z.object({ processId: z.string(), ...TerminalSize.shape }));

export const ProcessOutputNotification = lazySchema(() => z.object({ processId: z.string(), seq: z.number().int(), stream: ProcessStream, chunk: Base64Bytes }));
export const ProcessExitedNotification = lazySchema(() => z.object({
  processId: z.string(),
  seq: z.number().int(),
  exitCode: z.number().int(),
  /** Skein's addition, present when a signal ended the process. */
  signal: z.string().nullish().transform((value) => value ?? null),
  sandboxDenied: z.boolean().default(false),
}));
export const ProcessClosedNotification = lazySchema(() => z.object({ processId: z.string(), seq: z.number().int() }));
