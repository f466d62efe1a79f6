// Parsing and helper answers of a captured request, without a server.
import { describe, expect, it } from 'vitest';
import { CapturedRequest } from './captured-request.js';

function capture(rawBody: string, headers: Record<string, string> = {}): CapturedRequest {
  return new CapturedRequest({ index: 3, method: 'POST', path: '/v1/responses', query: {}, headers, rawBody, bodyBytes: rawBody.length });
}

describe('CapturedRequest', () => {
  it('keeps unknown body fields', () => {
    const request = capture(JSON.stringify({ model: 'm', input: [{ type: 'message', id: 'msg_1', extra: 1 }], client_metadata: { a: 1 } }));

    expect(request.body).toEqual({ model: 'm', input: [{ type: 'message', id: 'msg_1', extra: 1 }], client_metadata: { a: 1 } });
    expect(request.bodyError).toBeUndefined();
  });

  it('explains a body that is not JSON or not a Responses request', () => {
    const notJson = capture('nope');
    const wrongShape = capture(JSON.stringify({ model: 'm', input: [{ role: 'user' }] }));

    expect(notJson.json).toBeUndefined();
    expect(notJson.bodyError).toMatch(/^the body is not JSON/);
    expect(wrongShape.json).toEqual({ model: 'm', input: [{ role: 'user' }] });
    expect(wrongShape.body).toBeUndefined();
    expect(wrongShape.bodyError).toContain('input[0].type');
  });

  it('reads string message content and ignores parts that are not text', () => {
    const request = capture(
      JSON.stringify({
        model: 'm',
        input: [
          { type: 'message', role: 'user', content: 'plain' },
          { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: 'data:' }, { type: 'input_text', text: 'with image' }] },
        ],
      }),
    );

    expect(request.messageTexts('user')).toEqual(['plain', 'with image']);
    expect(request.messageTexts('developer')).toEqual([]);
  });

  it('gives empty answers for a request without a Responses body', () => {
    const request = capture('');

    expect(request.inputItems()).toEqual([]);
    expect(request.toolNames()).toEqual([]);
    expect(request.toolOutput('call_1')).toBeUndefined();
    expect(request.toolOutputText('call_1')).toBeUndefined();
  });

  it('looks headers up without regard to case, and only own keys', () => {
    const request = capture('', { 'session-id': 's1' });

    expect(request.header('Session-ID')).toBe('s1');
    expect(request.header('constructor')).toBeUndefined();
  });
});
