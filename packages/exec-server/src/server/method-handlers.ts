// What each exec-server method does once its params have parsed: a table from method name to handler,
// with the method group that gates it until the client has initialized.
import * as z from 'zod';
import type { BlockReaderSource } from '../block-reader.js';
import type { ExecutorFileSystem } from '../file-system.js';
import type { ExecutorProcesses } from '../process-api.js';
import { toBase64 } from '../protocol/base64-bytes.js';
import { VerbatimString } from '../protocol/json-text.js';
import {
  ExecServerMethod,
  FsCloseParams,
  FsCopyParams,
  FsCreateDirectoryParams,
  FsGetMetadataParams,
  FsOpenParams,
  FsPathParams,
  FsReadBlockParams,
  FsRemoveParams,
  FsWalkParams,
  FsWriteFileParams,
  ProcessIdParams,
  ProcessReadParams,
  ProcessResizeParams,
  ProcessSignalParams,
  ProcessStartParams,
  ProcessWriteParams,
  type EnvironmentInfo,
} from '../protocol/messages.js';
import { childEnvironment } from './child-environment.js';
import { ExecServerErrorCode } from '../protocol/exec-server-error-code.js';
import type { FileHandles } from './file-handles.js';
import { RequestError } from './request-error.js';

/** The group named in "client must call initialize before using … methods". */
export type MethodGroup = 'filesystem' | 'exec' | 'environment info';

/** Everything a handler may use: this connection's processes and handles, the shared filesystem. */
export interface HandlerContext {
  readonly fileSystem: ExecutorFileSystem & BlockReaderSource;
  readonly processes: ExecutorProcesses;
  readonly handles: FileHandles;
  readonly environment: () => Promise<EnvironmentInfo>;
  /** The executor's own environment, the source for `envPolicy`. */
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
}

/** One method: its gate, its params schema and what it answers. */
export interface MethodHandler {
  readonly group: MethodGroup;
  readonly params: z.ZodType;
  run(params: unknown, context: HandlerContext): Promise<unknown>;
}

function handler<S extends z.ZodType>(
  group: MethodGroup,
  params: S,
  run: (params: z.output<S>, context: HandlerContext) => Promise<unknown>,
): MethodHandler {
  return { group, params, run: (value, context) => run(value as z.output<S>, context) };
}

const EMPTY = {};

/** Every method but `initialize`, which the connection handles itself. */
export const METHOD_HANDLERS: ReadonlyMap<string, MethodHandler> = new Map<string, MethodHandler>([
  [ExecServerMethod.EnvironmentInfo, handler('environment info', z.unknown(), (_params, { environment }) => environment())],
  [
    ExecServerMethod.FsGetMetadata,
    handler('filesystem', FsGetMetadataParams, ({ path, sandbox, followSymlinks }, { fileSystem }) =>
      fileSystem.getMetadata(path, { sandbox, followSymlinks: followSymlinks ?? true }),
    ),
  ],
  [
    ExecServerMethod.FsReadFile,
    handler('filesystem', FsPathParams, async ({ path, sandbox }, { fileSystem }) => ({
      dataBase64: new VerbatimString(toBase64(await fileSystem.readFile(path, { sandbox }))),
    })),
  ],
  [
    ExecServerMethod.FsWriteFile,
    handler('filesystem', FsWriteFileParams, async ({ path, dataBase64, sandbox }, { fileSystem }) => {
      await fileSystem.writeFile(path, dataBase64, { sandbox });
      return EMPTY;
    }),
  ],
  [
    ExecServerMethod.FsReadDirectory,
    handler('filesystem', FsPathParams, async ({ path, sandbox }, { fileSystem }) => ({
      entries: await fileSystem.readDirectory(path, { sandbox }),
    })),
  ],
  [
    ExecServerMethod.FsCreateDirectory,
    handler('filesystem', FsCreateDirectoryParams, async ({ path, recursive, sandbox }, { fileSystem }) => {
      // Codex's wire default is recursive.
      await fileSystem.createDirectory(path, { recursive: recursive ?? true, sandbox });
      return EMPTY;
    }),
  ],
  [
    ExecServerMethod.FsCopy,
    handler('filesystem', FsCopyParams, async ({ sourcePath, destinationPath, recursive, sandbox }, { fileSystem }) => {
      await fileSystem.copy(sourcePath, destinationPath, { recursive, sandbox });
      return EMPTY;
    }),
  ],
  [
    ExecServerMethod.FsRemove,
    handler('filesystem', FsRemoveParams, async ({ path, recursive, force, sandbox }, { fileSystem }) => {
      // Codex's wire defaults are recursive and force (rm -rf) when the client leaves them out.
      await fileSystem.remove(path, { recursive: recursive ?? true, force: force ?? true, sandbox });
      return EMPTY;
    }),
  ],
  [
    ExecServerMethod.FsCanonicalize,
    handler('filesystem', FsPathParams, async ({ path, sandbox }, { fileSystem }) => ({
      path: await fileSystem.canonicalize(path, { sandbox }),
    })),
  ],
  [
    ExecServerMethod.FsWalk,
    handler('filesystem', FsWalkParams, ({ path, options, sandbox }, { fileSystem }) => fileSystem.walk(path, options, { sandbox })),
  ],
  [
    ExecServerMethod.FsOpen,
    handler('filesystem', FsOpenParams, async ({ handleId, path, sandbox }, { fileSystem, handles }) => {
      await handles.open(handleId, () => fileSystem.openBlockReader(path, { sandbox }));
      return { handleId };
    }),
  ],
  [
    ExecServerMethod.FsReadBlock,
    handler('filesystem', FsReadBlockParams, async ({ handleId, offset, len }, { handles }) => {
      const block = await handles.readBlock(handleId, offset, len);
      return { chunk: new VerbatimString(toBase64(block.chunk)), eof: block.eof };
    }),
  ],
  [
    ExecServerMethod.FsClose,
    handler('filesystem', FsCloseParams, async ({ handleId }, { handles }) => {
      await handles.close(handleId);
      return EMPTY;
    }),
  ],
  [
    ExecServerMethod.ProcessStart,
    handler('exec', ProcessStartParams, async (params, { processes, hostEnv }) => {
      if (params.enforceManagedNetwork === true) {
        // Without a managed network proxy the only safe answer is to refuse (Codex fails closed too).
        throw new RequestError(
          ExecServerErrorCode.InvalidRequest,
          'this executor has no managed network proxy, so it refuses processes that require one',
        );
      }
      return processes.start({
        processId: params.processId,
        argv: params.argv,
        cwd: params.cwd,
        env: childEnvironment(params.envPolicy, params.env, hostEnv),
        tty: params.tty,
        pipeStdin: params.pipeStdin ?? false,
        arg0: params.arg0,
        sandbox: params.sandbox,
        outputByteCap: params.outputByteCap ?? undefined,
        size: params.size ?? undefined,
      });
    }),
  ],
  [
    ExecServerMethod.ProcessRead,
    handler('exec', ProcessReadParams, async ({ processId, ...options }, { processes }) => {
      const { signal, ...result } = await processes.read(processId, options);
      const chunks = result.chunks.map((chunk) => ({ seq: chunk.seq, stream: chunk.stream, chunk: toBase64(chunk.chunk) }));
      // `signal` only when there is one, so the answer is exactly Codex's otherwise.
      return { ...result, chunks, ...(signal === null ? {} : { signal }) };
    }),
  ],
  [
    ExecServerMethod.ProcessWrite,
    handler('exec', ProcessWriteParams, async ({ processId, chunk, writeId }, { processes }) => ({
      status: await processes.write(processId, chunk, writeId),
    })),
  ],
  [
    ExecServerMethod.ProcessSignal,
    handler('exec', ProcessSignalParams, async ({ processId, signal }, { processes }) => {
      await processes.signal(processId, signal);
      return EMPTY;
    }),
  ],
  [
    ExecServerMethod.ProcessTerminate,
    handler('exec', ProcessIdParams, ({ processId }, { processes }) => processes.terminate(processId)),
  ],
  [
    ExecServerMethod.ProcessResize,
    handler('exec', ProcessResizeParams, async ({ processId, cols, rows }, { processes }) => {
      await processes.resize(processId, { cols, rows });
      return EMPTY;
    }),
  ],
]);
