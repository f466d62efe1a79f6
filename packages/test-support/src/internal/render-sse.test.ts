// Rendering a script into frames: numbering, output indexes, response objects, emitted calls.
import { describe, expect, it } from 'vitest';
import { MockIdAllocator } from '../mock-id-allocator.js';
import { streamCut } from '../mock-event.js';
import { sse } from '../scripted-response.js';
import { completed, outputItemAdded, outputItemDone, outputTextDelta } from '../sse-events.js';
import { assistantMessage, functionCall } from '../sse-items.js';
import { renderSse } from './render-sse.js';

function render(...steps: Parameters<typeof sse>) {
  return renderSse(sse(...steps).steps, { resolveId: new MockIdAllocator().scope(), model: 'gpt-test' });
}

describe('renderSse', () => {
  it('numbers events from 0 and frames them as event/data pairs', () => {
    const rendered = render(completed({ responseId: 'resp_x' }));

    expect(rendered.events.map((event) => event.sequence_number)).toEqual([0, 1]);
    expect(rendered.frames[1]).toBe(
      'event: response.completed\ndata: ' +
        JSON.stringify({
          type: 'response.completed',
          response: {
            id: 'resp_x',
            object: 'response',
            status: 'completed',
            usage: { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 },
            model: 'gpt-test',
            output: [],
          },
          sequence_number: 1,
        }) +
        '\n\n',
    );
  });

  it('keeps an output_index or model the script sets', () => {
    const rendered = renderSse(
      [{ type: 'response.created', response: { id: 'r', model: 'scripted' } }, outputItemAdded({ type: 'message', id: 'm' }), { ...outputTextDelta('m', 'x'), output_index: 7 }],
      { resolveId: new MockIdAllocator().scope(), model: 'gpt-test' },
    );

    expect(rendered.events.map((event) => event.output_index)).toEqual([undefined, 0, 7]);
    expect(rendered.events[0]?.response).toMatchObject({ model: 'scripted' });
  });

  it('continues the last item for a hand-written done event without an id', () => {
    const rendered = render(outputItemAdded({ type: 'message' }), outputItemDone({ type: 'message' }), outputItemAdded({ type: 'message' }));

    expect(rendered.events.slice(1).map((event) => event.output_index)).toEqual([0, 0, 1]);
  });

  it('reports the tool calls it finished and whether the response completed', () => {
    const whole = render(functionCall('a', {}, { callId: 'call_a' }), assistantMessage('x'), completed());
    const cut = render(functionCall('a', {}, { callId: 'call_a' }), streamCut());

    expect(whole.emittedCallIds).toEqual(['call_a']);
    expect(whole.completed).toBe(true);
    expect(cut.completed).toBe(false);
    expect(cut.cut).toEqual(streamCut());
    expect(cut.events).toHaveLength(3);
  });
});
