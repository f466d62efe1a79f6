// Every request is captured as received, and the helpers answer what the model was shown.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, sse, startMockResponsesServer } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('request capture', () => {
  it('records method, path, query, lower-cased headers, raw body and parsed body', async () => {
    server = await startMockResponsesServer({ responses: [sse(completed())] });
    const body = responsesBody([userMessage('hi')], { prompt_cache_key: 'thread-1' });

    await post(`${server.url}`, body, {
      path: '/responses?api-version=1',
      headers: { Authorization: 'Bearer test-key', 'X-Codex-Window-Id': 'thread-1:0' },
    });

    const [request] = server.requests;
    expect(request).toMatchObject({
      index: 0,
      method: 'POST',
      path: '/v1/responses',
      query: { 'api-version': '1' },
      rawBody: JSON.stringify(body),
      bodyBytes: Buffer.byteLength(JSON.stringify(body)),
      json: body,
      body,
    });
    expect(request?.headers).toMatchObject({ authorization: 'Bearer test-key', 'x-codex-window-id': 'thread-1:0' });
    expect(request?.header('X-CODEX-WINDOW-ID')).toBe('thread-1:0');
    expect(request?.header('x-not-sent')).toBeUndefined();
    server.verify();
  });

  it('answers what the model saw: items, message texts, tool outputs and tool names', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage('ok'), completed())] });
    const input = [
      {
        type: 'additional_tools',
        role: 'developer',
        tools: [{ type: 'namespace', name: 'clock', tools: [{ type: 'function', name: 'sleep' }] }],
      },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Run ' }, { type: 'input_text', text: 'echo hi' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Running it.' }], phase: 'commentary' },
      { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"echo hi"}', call_id: 'call_1' },
      { type: 'function_call_output', call_id: 'call_1', output: 'hi\n' },
      { type: 'custom_tool_call', name: 'exec', input: 'text(1)', call_id: 'call_2' },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'Script completed\n' }, { type: 'input_text', text: '1' }] },
    ];
    const tools = [
      { type: 'function', name: 'exec_command', parameters: {} },
      { type: 'custom', name: 'apply_patch' },
      { type: 'namespace', name: 'skills', tools: [{ type: 'function', name: 'list' }, { type: 'function', name: 'read' }] },
      { type: 'web_search' },
    ];

    await post(server.url, responsesBody(input, { tools }));

    const request = server.requests[0];
    expect(request?.inputItems({ type: 'message' })).toHaveLength(3);
    expect(request?.inputItems({ role: 'developer' }).map((item) => item.type)).toEqual(['additional_tools', 'message']);
    expect(request?.messageTexts('user')).toEqual(['Run echo hi']);
    expect(request?.messageTexts('assistant')).toEqual(['Running it.']);
    expect(request?.toolOutput('call_1')).toEqual({ type: 'function_call_output', call_id: 'call_1', output: 'hi\n' });
    expect(request?.toolOutputText('call_2')).toBe('Script completed\n1');
    expect(request?.toolOutput('call_missing')).toBeUndefined();
    expect(request?.toolNames()).toEqual(['exec_command', 'apply_patch', 'list', 'read', 'web_search', 'sleep']);
    expect(request?.toolNames({ qualified: true })).toEqual(['exec_command', 'apply_patch', 'skills.list', 'skills.read', 'web_search', 'clock.sleep']);
    server.verify();
  });
});
