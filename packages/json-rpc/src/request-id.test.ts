import { describe, expect, it } from 'vitest';
import { UNKNOWN_REQUEST_ID, recoverRequestId } from './request-id.js';

describe('recoverRequestId', () => {
  it('reads a number or string id from the start of a truncated message', () => {
    expect(recoverRequestId('{"id":7,"method":"fs/writeFile","params":{"dataBase64":"AAAA')).toBe(7);
    expect(recoverRequestId('{"method":"x","id" : "a\\"b","params":')).toBe('a"b');
  });

  it('answers with Codex\'s unknown id when there is none to read', () => {
    expect(recoverRequestId('not json at all')).toBe(UNKNOWN_REQUEST_ID);
    expect(recoverRequestId(`{"params":"${'x'.repeat(5000)}","id":3}`)).toBe(UNKNOWN_REQUEST_ID);
    expect(UNKNOWN_REQUEST_ID).toBe(-1);
  });
});
