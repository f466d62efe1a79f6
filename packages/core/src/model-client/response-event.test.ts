// parseServerEvent: the union's verdict for each event, reached for less.
import { describe, expect, it } from 'vitest';
import { ServerEvent, parseServerEvent } from './response-event.js';

describe('parseServerEvent', () => {
  it('gives what ServerEvent.safeParse gives, for valid and malformed events alike', () => {
    const events: [string, unknown][] = [
      ['response.output_text.delta', { type: 'response.output_text.delta', item_id: 'm1', delta: 'hi', content_index: 0 }],
      ['response.reasoning_text.delta', { type: 'response.reasoning_text.delta', item_id: 'r1', delta: 7 }],
      ['response.reasoning_summary_text.delta', { type: 'response.reasoning_summary_text.delta', delta: 'x' }],
      ['response.created', { type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } }],
      ['response.completed', { type: 'response.completed', response: { id: 'resp_1', usage: { input_tokens: -1 } } }],
      ['response.output_item.done', { type: 'response.output_item.done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] } }],
      // Named by the SSE event only: the union reports the missing discriminator.
      ['response.created', { response: { id: 'resp_1' } }],
      ['response.created', null],
    ];
    for (const [type, json] of events) expect(parseServerEvent(type, json)).toEqual(ServerEvent.safeParse(json));
  });

  it('ignores a type this client does not act on', () => {
    expect(parseServerEvent('response.in_progress', { type: 'response.in_progress' })).toBeUndefined();
  });
});
