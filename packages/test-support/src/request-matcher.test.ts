// Partial-body and predicate matchers, and how they explain a mismatch.
import { describe, expect, it } from 'vitest';
import { CapturedRequest } from './captured-request.js';
import { describeRequestMismatch, describeValueMismatch } from './request-matcher.js';

function requestWith(body: unknown): CapturedRequest {
  const rawBody = JSON.stringify(body);
  return new CapturedRequest({ index: 0, method: 'POST', path: '/v1/responses', query: {}, headers: {}, rawBody, bodyBytes: rawBody.length });
}

describe('partial body matching', () => {
  const body = { model: 'gpt-5.5', stream: true, input: [{ type: 'message', role: 'user' }], reasoning: { effort: 'medium' } };

  it('matches a subset of keys, recursively', () => {
    expect(describeValueMismatch({ model: 'gpt-5.5', reasoning: {} }, body, 'body')).toBeUndefined();
  });

  it('names the path of the first difference', () => {
    expect(describeValueMismatch({ input: [{ role: 'developer' }] }, body, 'body')).toBe('body.input[0].role: expected "developer", got "user"');
  });

  it('requires arrays to have the same length', () => {
    expect(describeValueMismatch({ input: [] }, body, 'body')).toBe('body.input: expected 0 elements, got 1');
  });

  it('matches strings against a RegExp', () => {
    expect(describeValueMismatch({ model: /^gpt-5/ }, body, 'body')).toBeUndefined();
    expect(describeValueMismatch({ model: /^o3/ }, body, 'body')).toBe('body.model: expected a string matching /^o3/, got "gpt-5.5"');
  });

  it('says when an expected key is absent or has another shape', () => {
    expect(describeValueMismatch({ tools: [] }, body, 'body')).toBe('body.tools: expected an array, got nothing');
    expect(describeValueMismatch({ model: { name: 'x' } }, body, 'body')).toBe('body.model: expected an object, got "gpt-5.5"');
  });

  it('applies to the request JSON through describeRequestMismatch', () => {
    expect(describeRequestMismatch({ stream: false }, requestWith(body))).toBe('body.stream: expected false, got true');
  });
});

describe('predicate matching', () => {
  it('passes when the predicate returns true', () => {
    expect(describeRequestMismatch(() => true, requestWith({}))).toBeUndefined();
  });

  it('explains a false answer and a thrown error', () => {
    expect(describeRequestMismatch(() => false, requestWith({}))).toBe('the predicate returned false');
    expect(
      describeRequestMismatch(() => {
        throw new Error('expected two user messages');
      }, requestWith({})),
    ).toBe('the predicate threw: expected two user messages');
  });
});
