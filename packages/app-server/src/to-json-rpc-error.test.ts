import { FileSystemError } from '@skein/exec-server';
import { FsReadFileParams } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AppServerRequestError } from './app-server-error.js';
import { toJsonRpcError } from './to-json-rpc-error.js';

function zodError(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a parse failure');
  return result.error;
}

describe('toJsonRpcError', () => {
  it('words params failures as Codex: missing fields by name, relative paths without a location', () => {
    expect(toJsonRpcError(zodError(FsReadFileParams, {}))).toEqual({ code: -32600, message: 'Invalid request: missing field `path`' });
    expect(toJsonRpcError(zodError(FsReadFileParams, { path: 'a/b' }))).toEqual({
      code: -32600,
      message: 'Invalid request: AbsolutePathBuf deserialized without a base path',
    });
    const nested = z.object({ outer: z.object({ inner: z.array(z.number()) }) });
    expect(toJsonRpcError(zodError(nested, { outer: { inner: [1, 'x'] } }))).toEqual({
      code: -32600,
      message: 'Invalid request: outer.inner.1: Invalid input: expected number, received string',
    });
  });

  it('names the first problem only, as serde stops at its first, and words a top-level tag as its schema does', () => {
    const both = z.object({ first: z.string(), second: z.string() });
    expect(toJsonRpcError(zodError(both, {}))).toEqual({ code: -32600, message: 'Invalid request: missing field `first`' });
    const tagged = z.discriminatedUnion('type', [z.object({ type: z.literal('a') })], { error: () => 'unknown variant `b`, expected `a`' });
    expect(toJsonRpcError(zodError(tagged, { type: 'b' }))).toEqual({ code: -32600, message: 'Invalid request: unknown variant `b`, expected `a`' });
  });

  it('maps OS failures to -32603 with the OS message, request problems to -32600', () => {
    expect(toJsonRpcError(new FileSystemError('NotFound', 'No such file or directory (os error 2)', 'ENOENT'))).toEqual({
      code: -32603,
      message: 'No such file or directory (os error 2)',
    });
    expect(toJsonRpcError(new FileSystemError('NotAFile', 'path `/x` is not a file'))).toEqual({ code: -32600, message: 'path `/x` is not a file' });
    expect(toJsonRpcError(new FileSystemError('Io', 'disk on fire'))).toEqual({ code: -32603, message: 'disk on fire' });
  });

  it('keeps a handler\'s chosen error and turns anything else into -32603', () => {
    expect(toJsonRpcError(new AppServerRequestError(-32601, 'nope', { why: 1 }))).toEqual({ code: -32601, message: 'nope', data: { why: 1 } });
    expect(toJsonRpcError(new TypeError('boom'))).toEqual({ code: -32603, message: 'boom' });
    expect(toJsonRpcError('a string')).toEqual({ code: -32603, message: 'a string' });
  });
});
