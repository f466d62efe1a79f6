import { describe, expect, it } from 'vitest';
import { JsonRpcErrorMapper, JsonRpcRequestError, mapErrorClass, mapErrorCodes } from './json-rpc-error-mapping.js';

class DiskError extends Error {
  constructor(
    readonly code: 'Missing' | 'Busy',
    message: string,
  ) {
    super(message);
  }
}

class OtherError extends Error {}

class ServerRequestError extends JsonRpcRequestError {
  override readonly name = 'ServerRequestError';
  constructor(
    override readonly code: -32600 | -32601,
    message: string,
    data?: unknown,
  ) {
    super(code, message, data);
  }
}

describe('JsonRpcErrorMapper', () => {
  const mapper = new JsonRpcErrorMapper({
    mappings: [mapErrorCodes(DiskError, { Missing: -32004, Busy: -32603 }), mapErrorClass(OtherError, (error) => ({ code: -32602, message: `other: ${error.message}` }))],
    internalErrorMessage: (message) => `internal error: ${message}`,
  });

  it('answers a request error with the code and data it chose, subclasses included', () => {
    expect(mapper.toJsonRpcError(new ServerRequestError(-32601, 'no such method', { method: 'x' }))).toEqual({
      code: -32601,
      message: 'no such method',
      data: { method: 'x' },
    });
    expect(mapper.toJsonRpcError(new JsonRpcRequestError(-32001, 'busy'))).toEqual({ code: -32001, message: 'busy' });
  });

  it('maps a domain error through its server\'s table, keeping the stable code in data', () => {
    expect(mapper.toJsonRpcError(new DiskError('Missing', 'no file'))).toEqual({ code: -32004, message: 'no file', data: { code: 'Missing' } });
    expect(mapper.toJsonRpcError(new DiskError('Busy', 'later'))).toEqual({ code: -32603, message: 'later', data: { code: 'Busy' } });
    expect(mapper.toJsonRpcError(new OtherError('x'))).toEqual({ code: -32602, message: 'other: x' });
  });

  it('turns anything else into -32603 with the server\'s wording', () => {
    expect(mapper.toJsonRpcError(new TypeError('boom'))).toEqual({ code: -32603, message: 'internal error: boom' });
    expect(mapper.toJsonRpcError('a string')).toEqual({ code: -32603, message: 'internal error: a string' });
    expect(new JsonRpcErrorMapper({ mappings: [] }).toJsonRpcError(new Error('plain'))).toEqual({ code: -32603, message: 'plain' });
  });

  it('lets a mapping leave out data', () => {
    const bare = new JsonRpcErrorMapper({ mappings: [mapErrorCodes(DiskError, { Missing: -32600, Busy: -32600 }, () => undefined)] });
    expect(bare.toJsonRpcError(new DiskError('Missing', 'gone'))).toEqual({ code: -32600, message: 'gone' });
  });
});
