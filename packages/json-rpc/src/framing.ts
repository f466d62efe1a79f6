// @skein/json-rpc/framing — line framing without the listeners, for code that must stay small and
// free of `ws` and `node:http` (the exec-server's sandboxed fs helper, clients). Re-exports only.

export { LineSplitter } from './line-splitter.js';
export type { LineSink } from './line-splitter.js';
export { UNKNOWN_REQUEST_ID, recoverRequestId } from './request-id.js';
export { OVERSIZED_HEAD_BYTES } from './limits.js';
