// The exec-server's error mappings for @skein/json-rpc's mapper: what Codex answers for each of our
// error codes, keeping the stable code in `data.code` so a Skein client can rebuild the same error.
import { JsonRpcErrorMapper, mapErrorClass, mapErrorCodes } from '@skein/json-rpc';
import type { JsonRpcErrorObject } from '@skein/protocol/executor';
import * as z from 'zod';
import { FileSystemError, type FileSystemErrorCode } from '../file-system-error.js';
import { ProcessError, type ProcessErrorCode } from '../process-api.js';
import { INVALID_BASE64 } from '../protocol/base64-bytes.js';
import { ExecServerErrorCode } from '../protocol/exec-server-error-code.js';

const FILE_SYSTEM_CODES: Readonly<Record<FileSystemErrorCode, number>> = {
  NotFound: ExecServerErrorCode.NotFound,
  // Codex answers refusals and misuse with "invalid request" and other OS failures with "internal error".
  PermissionDenied: ExecServerErrorCode.InvalidRequest,
  NotAFile: ExecServerErrorCode.InvalidRequest,
  SymlinkNotAllowed: ExecServerErrorCode.InvalidRequest,
  InvalidPath: ExecServerErrorCode.InvalidRequest,
  InvalidArgument: ExecServerErrorCode.InvalidRequest,
  InvalidUtf8: ExecServerErrorCode.InvalidRequest,
  TooLarge: ExecServerErrorCode.InvalidRequest,
  AlreadyExists: ExecServerErrorCode.InternalError,
  NotADirectory: ExecServerErrorCode.InternalError,
  IsADirectory: ExecServerErrorCode.InternalError,
  DirectoryNotEmpty: ExecServerErrorCode.InternalError,
  ReadOnlyFileSystem: ExecServerErrorCode.InternalError,
  SymlinkLoop: ExecServerErrorCode.InternalError,
  SandboxUnavailable: ExecServerErrorCode.InternalError,
  Io: ExecServerErrorCode.InternalError,
};

const PROCESS_CODES: Readonly<Record<ProcessErrorCode, number>> = {
  ProcessExists: ExecServerErrorCode.InvalidRequest,
  UnknownProcess: ExecServerErrorCode.InvalidRequest,
  InvalidArgument: ExecServerErrorCode.InvalidParams,
  SpawnFailed: ExecServerErrorCode.InternalError,
  TooManyProcesses: ExecServerErrorCode.InvalidRequest,
  StdinFull: ExecServerErrorCode.InvalidRequest,
  NotATerminal: ExecServerErrorCode.InvalidRequest,
  SandboxUnavailable: ExecServerErrorCode.InternalError,
  Closed: ExecServerErrorCode.InvalidRequest,
};

/** One line per zod issue: `path.to.field: what was wrong`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`))
    .join('; ');
}

const mapper = new JsonRpcErrorMapper({
  mappings: [
    mapErrorClass(z.ZodError, (error) => {
      // Codex parses the bytes after the params, so it answers bad base64 as an invalid request.
      const onlyBase64 = error.issues.every((issue) => issue.code === 'custom' && issue.params?.code === INVALID_BASE64);
      return { code: onlyBase64 ? ExecServerErrorCode.InvalidRequest : ExecServerErrorCode.InvalidParams, message: `invalid params: ${describeIssues(error)}` };
    }),
    mapErrorCodes(FileSystemError, FILE_SYSTEM_CODES, (error) => ({ code: error.code, ...(error.errno === undefined ? {} : { errno: error.errno }) })),
    mapErrorCodes(ProcessError, PROCESS_CODES, (error) => {
      const data: Record<string, unknown> = { code: error.code };
      if (error.errno !== undefined) data.errno = error.errno;
      // Codex marks a program or cwd that does not exist this way; its clients look for it.
      if (error.code === 'SpawnFailed') data.kind = error.errno === 'ENOENT' ? 'spawnNotFound' : 'spawnFailed';
      return data;
    }),
  ],
  internalErrorMessage: (message) => `internal error: ${message}`,
});

/** The JSON-RPC error object for `error`; unexpected errors become "internal error" with their message. */
export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  return mapper.toJsonRpcError(error);
}
