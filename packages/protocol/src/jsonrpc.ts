// The JSON-RPC 2.0 envelope as Codex's app-server uses it: one JSON object per message, with the
// `"jsonrpc": "2.0"` member left out on the wire (accepted, and ignored, when a peer sends it).
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A request id: a string or an integer. */
export const RequestId = lazySchema(() => z.union([z.string(), z.number().int()]));
export type RequestId = z.infer<typeof RequestId>;

const version = lazySchema(() => ({ jsonrpc: z.literal('2.0').optional() }));

/** W3C trace context a client may attach to a request. */
export const W3cTraceContext = lazySchema(() => z.object({ traceparent: z.string().nullish(), tracestate: z.string().nullish() }));
export type W3cTraceContext = z.infer<typeof W3cTraceContext>;

export const JsonRpcRequest = lazySchema(() => z.object({
  ...version,
  id: RequestId,
  method: z.string(),
  params: z.unknown().optional(),
  trace: W3cTraceContext.nullish(),
}));
export type JsonRpcRequest = z.infer<typeof JsonRpcRequest>;

export const JsonRpcNotification = lazySchema(() => z.object({
  ...version,
  method: z.string(),
  params: z.unknown().optional(),
  /** When the server emitted it (ms since the epoch); Codex stamps every server notification. */
  emittedAtMs: z.number().int().optional(),
}));
export type JsonRpcNotification = z.infer<typeof JsonRpcNotification>;

export const JsonRpcResponse = lazySchema(() => z.object({ ...version, id: RequestId, result: z.unknown() }));
export type JsonRpcResponse = z.infer<typeof JsonRpcResponse>;

export const JsonRpcErrorObject = lazySchema(() => z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }));
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObject>;

export const JsonRpcError = lazySchema(() => z.object({ ...version, id: RequestId.nullable(), error: JsonRpcErrorObject }));
export type JsonRpcError = z.infer<typeof JsonRpcError>;

/** Error codes Codex's app-server answers with. */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The server's bounded queue for this connection is full; retry later. */
  ServerOverloaded: -32001,
} as const;
export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/** Any JSON-RPC message, classified by which members it has. */
export type JsonRpcMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'error'; message: JsonRpcError };

/** Why a line could not be read as a JSON-RPC message. */
export class JsonRpcParseError extends Error {
  override readonly name = 'JsonRpcParseError';
  constructor(
    readonly code: 'InvalidJson' | 'NotAMessage',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Classifies one JSON-RPC message (already JSON-decoded, or a line of text).
 * A member set that fits none of the four shapes is a `JsonRpcParseError`, not an exception from deep inside.
 */
export function parseJsonRpcMessage(input: unknown): JsonRpcMessage {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input) as unknown;
    } catch (error) {
      throw new JsonRpcParseError('InvalidJson', `not valid JSON: ${(error as Error).message}`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JsonRpcParseError('NotAMessage', 'a JSON-RPC message must be a JSON object');
  }
  if ('method' in value) {
    if ('id' in value) {
      const request = JsonRpcRequest.safeParse(value);
      if (request.success) return { kind: 'request', message: request.data };
      throw new JsonRpcParseError('NotAMessage', `invalid request: ${z.prettifyError(request.error)}`);
    }
    const notification = JsonRpcNotification.safeParse(value);
    if (notification.success) return { kind: 'notification', message: notification.data };
    throw new JsonRpcParseError('NotAMessage', `invalid notification: ${z.prettifyError(notification.error)}`);
  }
  if ('error' in value) {
    const error = JsonRpcError.safeParse(value);
    if (error.success) return { kind: 'error', message: error.data };
    throw new JsonRpcParseError('NotAMessage', `invalid error response: ${z.prettifyError(error.error)}`);
  }
  if ('result' in value) {
    const response = JsonRpcResponse.safeParse(value);
    if (response.success) return { kind: 'response', message: response.data };
    throw new JsonRpcParseError('NotAMessage', `invalid response: ${z.prettifyError(response.error)}`);
  }
  throw new JsonRpcParseError('NotAMessage', 'a JSON-RPC message needs a `method`, a `result` or an `error`');
}
