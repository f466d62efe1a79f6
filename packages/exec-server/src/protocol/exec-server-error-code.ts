// The JSON-RPC error codes the exec-server answers with: the standard ones plus Codex 0.171.0's
// "not found" code for missing paths, processes' files and handles.
import { JsonRpcErrorCode } from '@skein/protocol/executor';

/** Error codes on the exec-server wire. */
export const ExecServerErrorCode = {
  ...JsonRpcErrorCode,
  /** A path, file handle or similar does not exist (Codex's `-32004`). */
  NotFound: -32004,
} as const;
export type ExecServerErrorCode = (typeof ExecServerErrorCode)[keyof typeof ExecServerErrorCode];
