// @skein/protocol/executor — what an executor (exec-server, sandboxing, json-rpc) speaks: path URIs,
// JSON-RPC messages, file-system errors and sandbox policies. Its own entry, so a program that needs
// only these builds none of the app-server's schemas at start-up. Re-exports only.

export {
  CoreSandboxPolicy,
  FileSystemAccessMode,
  FileSystemPath,
  FileSystemSandboxEntry,
  FileSystemSandboxPolicy,
  FileSystemSpecialPath,
  ManagedFileSystemPermissions,
  MissingPathBehavior,
  NetworkSandboxPolicy,
  PermissionProfile,
} from './sandbox-policy.js';

export { lazySchema } from './lazy-schema.js';
export { PathUri, PathUriError, PathUriString } from './path-uri.js';
export type { PathConvention, PathUriErrorCode } from './path-uri.js';
export { FileSystemError, FileSystemErrorCode } from './file-system-error.js';

export {
  JsonRpcError,
  JsonRpcErrorCode,
  JsonRpcErrorObject,
  JsonRpcNotification,
  JsonRpcParseError,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
  W3cTraceContext,
  parseJsonRpcMessage,
} from './jsonrpc.js';
export type { JsonRpcMessage } from './jsonrpc.js';
