// What `command/exec` and `process/*` share between parsing and running: Codex's checks and error
// texts for sizes, stdin bytes and environments, and the mapping of a failed start to an answer.
import { ProcessError } from '@skein/exec-server';
import { AppServerErrorCode, type CommandExecTerminalSize, type EnvironmentOverrides } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import type { ActiveProcess } from './connection-processes.js';

/** -32600 with `message`, word for word. */
export function badRequest(message: string): AppServerRequestError {
  return new AppServerRequestError(AppServerErrorCode.InvalidRequest, message);
}

/** -32602 with `message`: params that parse but do not fit together. */
export function badParams(message: string): AppServerRequestError {
  return new AppServerRequestError(AppServerErrorCode.InvalidParams, message);
}

/** Refuses a zero-sized terminal (`what` is `command/exec` or `process`, as Codex words it). */
export function checkSize(what: string, size: CommandExecTerminalSize | null | undefined): void {
  if (size != null && (size.rows === 0 || size.cols === 0)) throw badParams(`${what} size rows and cols must be greater than 0`);
}

/** A stdin write's bytes, checked before the process is looked up, as Codex does (`method` names the request). */
export function stdinBytes(params: { readonly deltaBase64?: string | null | undefined; readonly closeStdin?: boolean | null | undefined }, method: string): Uint8Array | undefined {
  if (params.deltaBase64 == null && params.closeStdin !== true) throw badParams(`${method} requires deltaBase64 or closeStdin`);
  return params.deltaBase64 == null ? undefined : decodeDeltaBase64(params.deltaBase64);
}

/** Writes `bytes` to the process's stdin, then closes it if asked (`noun`: `command/exec` or `process`). */
export async function writeStdin(entry: ActiveProcess, bytes: Uint8Array | undefined, closeStdin: boolean | null | undefined, noun: string): Promise<void> {
  if (!entry.stdin) throw badRequest(`stdin streaming is not enabled for this ${noun}`);
  if (bytes !== undefined && !(await entry.process.write(bytes))) throw badRequest(`stdin is already closed for this ${noun}`);
  if (closeStdin === true) await entry.process.closeStdin();
}

/** Resizes the process's terminal; one started without a PTY is refused. */
export async function resizePty(entry: ActiveProcess, size: CommandExecTerminalSize): Promise<void> {
  if (!entry.tty) throw badRequest('failed to resize PTY: process is not attached to a PTY');
  await entry.process.resize(size);
}

/** Strict standard base64 with the base64 crate's messages, which Codex passes on. */
export function decodeDeltaBase64(text: string): Uint8Array {
  const body = text.replace(/={1,2}$/, '');
  const bad = body.search(/[^A-Za-z0-9+/]/);
  if (bad !== -1) throw badParams(`invalid deltaBase64: Invalid symbol ${body.charCodeAt(bad)}, offset ${bad}.`);
  if (text.length % 4 !== 0) throw badParams('invalid deltaBase64: Invalid padding');
  return Buffer.from(text, 'base64');
}

/** `base` with the client's overrides: a string sets a variable, null removes it. */
export function withOverrides(base: Readonly<Record<string, string | undefined>>, overrides: EnvironmentOverrides | null | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) env[name] = value;
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** The OS part of a ProcessError's message (`No such file or directory (os error 2)`). */
function osPart(error: ProcessError): string {
  return /^.*?\(os error \d+\)/.exec(error.message)?.[0] ?? error.message;
}

/** The answer to a start that failed: `failed to spawn <noun>: <OS error>` for OS failures, as Codex. */
export function startFailure(error: unknown, noun: 'command' | 'process'): unknown {
  if (!(error instanceof ProcessError)) return error;
  switch (error.code) {
    case 'SpawnFailed':
      return new AppServerRequestError(AppServerErrorCode.InternalError, `failed to spawn ${noun}: ${osPart(error)}`);
    case 'SandboxUnavailable':
      return new AppServerRequestError(AppServerErrorCode.InternalError, `failed to spawn ${noun}: ${error.message}`);
    default:
      return badRequest(error.message);
  }
}
