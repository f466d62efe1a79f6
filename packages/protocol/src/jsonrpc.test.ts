import { describe, expect, it } from 'vitest';
import { JsonRpcParseError, parseJsonRpcMessage } from './jsonrpc.js';

describe('parseJsonRpcMessage', () => {
  it('classifies the four kinds of message without a jsonrpc member, as Codex sends them', () => {
    expect(parseJsonRpcMessage('{"id":1,"method":"initialize","params":{}}').kind).toBe('request');
    expect(parseJsonRpcMessage({ method: 'initialized' }).kind).toBe('notification');
    expect(parseJsonRpcMessage({ id: 'a', result: {} }).kind).toBe('response');
    expect(parseJsonRpcMessage({ id: 2, error: { code: -32601, message: 'method not found' } }).kind).toBe('error');
  });

  it('accepts and drops a jsonrpc member when a client sends it', () => {
    const parsed = parseJsonRpcMessage({ jsonrpc: '2.0', id: 3, method: 'thread/start', params: {} });
    expect(parsed).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id: 3, method: 'thread/start', params: {} } });
  });

  it('keeps a notification stamp', () => {
    const parsed = parseJsonRpcMessage({ method: 'turn/started', params: {}, emittedAtMs: 1764500000000 });
    expect(parsed.message).toHaveProperty('emittedAtMs', 1764500000000);
  });

  it.each([
    ['{not json', 'InvalidJson'],
    ['[1,2]', 'NotAMessage'],
    ['"text"', 'NotAMessage'],
    ['{"id":1}', 'NotAMessage'],
    ['{"id":1.5,"method":"x"}', 'NotAMessage'],
    ['{"id":1,"method":7}', 'NotAMessage'],
    ['{"jsonrpc":"1.0","method":"x"}', 'NotAMessage'],
    ['{"id":1,"error":{"message":"no code"}}', 'NotAMessage'],
  ])('rejects %s with code %s', (line, code) => {
    try {
      parseJsonRpcMessage(line);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonRpcParseError);
      expect((error as JsonRpcParseError).code).toBe(code);
    }
  });
});
