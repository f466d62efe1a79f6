// Maps whatever a handler threw to the JSON-RPC error Codex 0.171.0 answers with: params it cannot
// use are -32600 "Invalid request: …", OS failures -32603 with the OS's own message.
import { FileSystemError } from '@skein/exec-server';
import { AppServerErrorCode, AppServerErrorMessage, type JsonRpcErrorObject } from '@skein/protocol';
import { z } from 'zod';
import { AppServerRequestError } from './app-server-error.js';

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
  return location === '' ? issue.message : `${location}: ${issue.message}`;
}

/** `Invalid request: …` for params that failed their schema, one clause per zod issue. */
export function invalidParamsMessage(error: z.ZodError): string {
  return `${AppServerErrorMessage.InvalidRequestPrefix}${error.issues.map(describeIssue).join('; ')}`;
}

/**
 * The JSON-RPC error object for `error`. A `FileSystemError` from the OS is -32603 with the OS's
 * message (`No such file or directory (os error 2)`); one about the request itself (not a file,
 * a directory without `recursive`) is -32600. Anything unexpected is -32603 with its message.
 */
export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  if (error instanceof AppServerRequestError) {
    return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  }
  if (error instanceof z.ZodError) return { code: AppServerErrorCode.InvalidRequest, message: invalidParamsMessage(error) };
  if (error instanceof FileSystemError) {
    const aboutTheRequest = error.errno === undefined && error.code !== 'Io' && error.code !== 'SandboxUnavailable';
    return { code: aboutTheRequest ? AppServerErrorCode.InvalidRequest : AppServerErrorCode.InternalError, message: error.message };
  }
  return { code: AppServerErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
}
