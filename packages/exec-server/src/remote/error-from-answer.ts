// Rebuilds the executor's error classes from a JSON-RPC error answer: Skein servers put the stable
// code in `data.code`; for Codex's own server it is recovered from the error code and "os error N".
import { lazySchema, type JsonRpcErrorObject } from '@skein/protocol/executor';
import * as z from 'zod';
import { FileSystemError, FileSystemErrorCode, errnoForOsErrorNumber, fileSystemErrorCodeForErrno } from '../file-system-error.js';
import { ProcessError, ProcessErrorCode } from '../process-api.js';
import { ExecServerErrorCode } from '../protocol/exec-server-error-code.js';
import { ExecServerClientError } from './exec-server-client-error.js';

const ErrorData = lazySchema(() => z.object({ code: z.string().optional(), errno: z.string().optional(), kind: z.string().optional() }).partial());

function dataOf(error: JsonRpcErrorObject): z.infer<typeof ErrorData> {
  const parsed = ErrorData.safeParse(error.data);
  return parsed.success ? parsed.data : {};
}

function errnoInMessage(message: string): string | undefined {
  const match = /\(os error (\d+)\)/.exec(message);
  return match?.[1] === undefined ? undefined : errnoForOsErrorNumber(Number(match[1]));
}

/** Refusals that are about the connection or request, whichever method was called. */
function requestLevel(error: JsonRpcErrorObject): ExecServerClientError | undefined {
  const message = error.message;
  if (
    error.code === ExecServerErrorCode.ServerOverloaded ||
    error.code === ExecServerErrorCode.MethodNotFound ||
    /^client must (call initialize|send initialized)/.test(message) ||
    /^failed to parse/.test(message) ||
    /exceeds the \d+-byte limit/.test(message)
  ) {
    return new ExecServerClientError('Rejected', message, error);
  }
  return undefined;
}

/** The FileSystemError (or client error) an fs method's error answer stands for. */
export function fileSystemErrorFrom(error: JsonRpcErrorObject): Error {
  const data = dataOf(error);
  const known = FileSystemErrorCode.safeParse(data.code);
  if (known.success) return new FileSystemError(known.data, error.message, data.errno);
  const rejected = requestLevel(error);
  if (rejected !== undefined) return rejected;
  const errno = data.errno ?? errnoInMessage(error.message);
  if (errno !== undefined) return new FileSystemError(fileSystemErrorCodeForErrno(errno), error.message, errno);
  if (error.code === ExecServerErrorCode.NotFound) return new FileSystemError('NotFound', error.message, 'ENOENT');
  if (error.code === ExecServerErrorCode.InvalidParams) return new FileSystemError('InvalidArgument', error.message);
  if (/ is not a file$/.test(error.message)) return new FileSystemError('NotAFile', error.message);
  if (/symbolic link/.test(error.message)) return new FileSystemError('SymlinkNotAllowed', error.message);
  if (error.code === ExecServerErrorCode.InvalidRequest) return new FileSystemError('InvalidArgument', error.message);
  return new FileSystemError('Io', error.message);
}

/** The ProcessError (or client error) a process method's error answer stands for. */
export function processErrorFrom(error: JsonRpcErrorObject): Error {
  const data = dataOf(error);
  const known = ProcessErrorCode.safeParse(data.code);
  if (known.success) return new ProcessError(known.data, error.message, data.errno);
  const rejected = requestLevel(error);
  if (rejected !== undefined) return rejected;
  if (data.kind === 'spawnNotFound') return new ProcessError('SpawnFailed', error.message, 'ENOENT');
  if (/already exists/.test(error.message)) return new ProcessError('ProcessExists', error.message);
  if (/^unknown process id/.test(error.message)) return new ProcessError('UnknownProcess', error.message);
  if (error.code === ExecServerErrorCode.InvalidParams || error.code === ExecServerErrorCode.InvalidRequest) {
    return new ProcessError('InvalidArgument', error.message);
  }
  return new ProcessError('SpawnFailed', error.message, errnoInMessage(error.message));
}
