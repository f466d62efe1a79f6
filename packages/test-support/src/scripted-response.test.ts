// sse(), httpError() and matching(): what a scripted response holds and what is refused.
import { describe, expect, it } from 'vitest';
import { streamCut } from './mock-event.js';
import { httpError, matching, sse } from './scripted-response.js';
import { completed, created } from './sse-events.js';
import { assistantMessage } from './sse-items.js';

describe('sse()', () => {
  it('flattens item sequences and starts the script with response.created', () => {
    const script = sse(assistantMessage('hi'), completed());

    expect(script.kind).toBe('sse');
    expect(script.steps.map((step) => ('type' in step ? step.type : 'cut'))).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('keeps a response.created the script starts with', () => {
    const script = sse(created({ responseId: 'resp_fixed' }), completed());

    expect(script.steps).toHaveLength(2);
    expect(script.steps[0]).toMatchObject({ response: { id: 'resp_fixed' } });
  });

  it('accepts a stream cut only as the last step', () => {
    expect(sse(assistantMessage('hi'), streamCut()).steps.at(-1)).toEqual(streamCut());
    expect(() => sse(streamCut(), completed())).toThrow('streamCut() must be the last step');
  });
});

describe('httpError()', () => {
  it('takes a body and headers', () => {
    expect(httpError(429, { body: { error: { message: 'slow down' } }, headers: { 'retry-after': '1' } })).toEqual({
      kind: 'http-error',
      status: 429,
      body: { error: { message: 'slow down' } },
      headers: { 'retry-after': '1' },
    });
  });

  it('refuses a status that is not an error', () => {
    expect(() => httpError(200)).toThrow(expect.objectContaining({ code: 'InvalidScript' }));
    expect(() => httpError(600)).toThrow('4xx or 5xx');
  });
});

describe('matching()', () => {
  it('attaches the matcher without changing the response', () => {
    const response = httpError(500);

    expect(matching({ model: 'm' }, response)).toEqual({ ...response, match: { model: 'm' } });
  });
});
