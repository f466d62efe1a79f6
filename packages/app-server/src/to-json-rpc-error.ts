// The app-server's error mappings for @skein/json-rpc's mapper, as Codex 0.171.0 answers: params it
// cannot use are -32600 "Invalid request: …", OS failures -32603 with the OS's own message.
import { FileSystemError } from '@skein/exec-server';
import { JsonRpcErrorMapper, mapErrorClass } from '@skein/json-rpc';
import { RolloutError } from '@skein/rollout';
import { AppServerErrorCode, AppServerErrorMessage, type JsonRpcErrorObject } from '@skein/protocol';
import * as z from 'zod';

// Messages Codex prints without a location; everything else names the zod issue path.
const UNLOCATED = new Set<string>([AppServerErrorMessage.RelativePath]);

function describeIssue(issue: z.core.$ZodIssue): string {
  const location = issue.path.map(String).join('.');
  const last = issue.path.at(-1);
  if (UNLOCATED.has(issue.message)) return issue.message;
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined') && last !== undefined) {
    // Codex (serde) says `missing field \`version\``; nested fields also get their full path.
    const missing = `missing field \`${String(last)}\``;
    return issue.path.length === 1 ? missing : `${missing} at ${location}`;
  }
  // A top-level tag no variant has: the schema words it as serde does (`unknown variant \`x\`, expected one of …`), without a location.
  if (issue.code === 'invalid_union' && issue.discriminator !== undefined && issue.inclusive !== false && issue.path.length === 1) return issue.message;
  return location === '' ? issue.message : `${location}: ${issue.message}`;
}

/** `Invalid request: …` for params that failed their schema: the first problem, as serde stops at its first. */
export function invalidParamsMessage(error: z.ZodError): string {
  const first = error.issues[0];
  return `${AppServerErrorMessage.InvalidRequestPrefix}${first === undefined ? 'invalid params' : describeIssue(first)}`;
}

const mapper = new JsonRpcErrorMapper({
  // An AppServerRequestError is a JsonRpcRequestError: the mapper answers it with the code it chose.
  mappings: [
    mapErrorClass(z.ZodError, (error) => ({ code: AppServerErrorCode.InvalidRequest, message: invalidParamsMessage(error) })),
    mapErrorClass(FileSystemError, (error) => {
      const aboutTheRequest = error.errno === undefined && error.code !== 'Io' && error.code !== 'SandboxUnavailable';
      return { code: aboutTheRequest ? AppServerErrorCode.InvalidRequest : AppServerErrorCode.InternalError, message: error.message };
    }),
    // A thread another host is writing (a shared store) is the request's problem, named in the message; a failed database is ours.
    mapErrorClass(RolloutError, (error) => ({ code: error.code === 'WriterBusy' ? AppServerErrorCode.InvalidRequest : AppServerErrorCode.InternalError, message: error.message })),
  ],
});

/**
 * The JSON-RPC error object for `error`. A `FileSystemError` from the OS is -32603 with the OS's
 * message (`No such file or directory (os error 2)`); one about the request itself (not a file,
 * a directory without `recursive`) is -32600, as is a thread another writer holds (`WriterBusy`).
 * Anything unexpected is -32603 with its message.
 */
export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  return mapper.toJsonRpcError(error);
}
