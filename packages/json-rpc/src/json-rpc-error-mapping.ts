// The one way a server's errors become JSON-RPC error objects: a request error that chose its own
// code, then each server's mappings for its domain error classes, then "internal error".
import { JsonRpcErrorCode, type JsonRpcErrorObject } from '@skein/protocol/executor';

/**
 * A request answered with a JSON-RPC error the server chose (not initialized, unknown method,
 * overloaded, …). Each server's own request error extends it, narrowing `code` to its code type.
 */
export class JsonRpcRequestError extends Error {
  override readonly name: string = 'JsonRpcRequestError';
  constructor(
    /** The JSON-RPC error code of the answer. */
    readonly code: number,
    message: string,
    /** Extra structured detail for the answer's `data`. */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Turns the errors it recognizes into their JSON-RPC answer; undefined for any other error. */
export type ErrorMapping = (error: unknown) => JsonRpcErrorObject | undefined;

/** Any class of errors, for `instanceof`. */
export type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;

/** A mapping for the instances of `errorClass`. */
export function mapErrorClass<E extends Error>(errorClass: ErrorClass<E>, toJsonRpc: (error: E) => JsonRpcErrorObject): ErrorMapping {
  return (error) => (error instanceof errorClass ? toJsonRpc(error) : undefined);
}

/**
 * A mapping for a class whose errors carry a stable string `code`: `codes` gives every code its
 * JSON-RPC code (a missing code is a type error), the message is the error's own, and `data` adds
 * detail (by default `{ code }`, so a Skein client can rebuild the same error class).
 *
 * @example
 * mapErrorCodes(ProcessError, { UnknownProcess: -32600, SpawnFailed: -32603, … })
 */
export function mapErrorCodes<Code extends string, E extends Error & { readonly code: Code }>(
  errorClass: ErrorClass<E>,
  codes: Readonly<Record<Code, number>>,
  data: (error: E) => Readonly<Record<string, unknown>> | undefined = (error) => ({ code: error.code }),
): ErrorMapping {
  return mapErrorClass(errorClass, (error) => {
    const detail = data(error);
    return { code: codes[error.code], message: error.message, ...(detail === undefined ? {} : { data: detail }) };
  });
}

/** How a {@link JsonRpcErrorMapper} answers. */
export interface JsonRpcErrorMapperOptions {
  /** The server's mappings for its own error classes, tried in order. */
  readonly mappings: readonly ErrorMapping[];
  /** The message of the "internal error" answer, from the unexpected error's message (default: as is). */
  readonly internalErrorMessage?: ((message: string) => string) | undefined;
}

/** Maps whatever a handler threw to the JSON-RPC error object a server answers with. */
export class JsonRpcErrorMapper {
  readonly #mappings: readonly ErrorMapping[];
  readonly #internalErrorMessage: (message: string) => string;

  constructor(options: JsonRpcErrorMapperOptions) {
    this.#mappings = options.mappings;
    this.#internalErrorMessage = options.internalErrorMessage ?? ((message) => message);
  }

  /** The answer for `error`: a request error's own, a mapping's, or -32603 with the error's message. */
  toJsonRpcError(error: unknown): JsonRpcErrorObject {
    if (error instanceof JsonRpcRequestError) {
      return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
    }
    for (const mapping of this.#mappings) {
      const answer = mapping(error);
      if (answer !== undefined) return answer;
    }
    const message = error instanceof Error ? error.message : String(error);
    return { code: JsonRpcErrorCode.InternalError, message: this.#internalErrorMessage(message) };
  }
}
