// The built-in tools as the model sees them: the tool list against Codex's recording, and view_image
// and request_user_input round trips through a thread, asserting on what the next request carries.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, webSearchCall, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedClient, say, toolThreadFixture, withoutDescriptions, type ToolThreadFixture } from './support/tool-thread.js';

const CODEX_TOOLS = path.resolve(import.meta.dirname, '../node_modules/@skein/protocol/test/fixtures/codex-request-tools.gpt-5.5.json');
// A 1×1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let server: MockResponsesServer;
let fixture: ToolThreadFixture;

beforeEach(async () => {
  server = await startMockResponsesServer();
  fixture = toolThreadFixture(server);
});
afterEach(async () => {
  await fixture.cleanup();
  // Closing verifies the mock model: no unexpected request, no unused response.
  await server.close();
});


const model = () => server.expect([sse(assistantMessage('Hi.'), completed())]);

describe('built-in tools', () => {
  it('offers Codex’s tools for gpt-5.5 in Codex’s order, with its names, schemas and grammar', async () => {
    server.expect([sse(assistantMessage('Hi.'), completed())]);
    const { thread } = await fixture.openThread('"never"', undefined);
    await thread.runTurn(say('hello'));
    // tool_search is there for multi-agent v1's deferred tools, as in Codex.
    const recorded = JSON.parse(readFileSync(CODEX_TOOLS, 'utf8')) as unknown[];
    expect(withoutDescriptions(server.requests[0]!.body!.tools)).toEqual(withoutDescriptions(recorded));
  });

  it('leaves out the tools whose features are off', async () => {
    model();
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: ['features.view_image=false', 'features.shell_tool=false'] });
    await thread.runTurn(say('hello'));
    expect(server.requests[0]!.toolNames()).toEqual(['request_user_input', 'apply_patch', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search']);
  });

  it('offers the hosted web_search as config sets it; a streamed search is an item, kept in history and marked as external context', async () => {
    server.expect([sse(webSearchCall('skein runtime', { id: 'ws_1' }), assistantMessage('Found it.'), completed()), sse(assistantMessage('Again.'), completed())]);
    const { thread, events } = await fixture.openThread('"never"', undefined, { overrides: ['web_search="live"', 'tools.web_search.allowed_domains=["example.com"]'] });
    await thread.runTurn(say('search'));
    await thread.runTurn(say('again'));
    expect(server.requests[0]!.body!.tools?.at(-1)).toEqual({ type: 'web_search', external_web_access: true, filters: { allowed_domains: ['example.com'] }, search_content_types: ['text', 'image'] });
    const searches = events.flatMap((event) => (event.type === 'turnItem' && event.item.kind === 'webSearch' ? [{ phase: event.phase, query: event.item.query, action: event.item.action }] : []));
    expect(searches).toEqual([
      { phase: 'started', query: '', action: { type: 'other' } },
      { phase: 'completed', query: 'skein runtime', action: { type: 'search', query: 'skein runtime', queries: ['skein runtime'] } },
    ]);
    // The next request replays the search where it happened, between the prompt and the answer.
    const input = server.requests[1]!.body!.input;
    const at = input.findIndex((item) => item.type === 'web_search_call');
    expect(input[at]).toMatchObject({ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'skein runtime' } });
    expect(input[at + 1]).toMatchObject({ type: 'message', role: 'assistant' });
    const recorded = events.find((event) => event.type === 'itemCompleted' && event.item.type === 'web_search_call');
    expect(recorded).toMatchObject({ item: { metadata: { external_context: true } } });
  });

  it('offers no web search with web_search = "disabled", whatever the deprecated switches say', async () => {
    model();
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: ['web_search="disabled"', 'features.web_search_request=true'] });
    await thread.runTurn(say('hello'));
    expect(server.requests[0]!.toolNames()).not.toContain('web_search');
  });

  it('offers no web search through a provider that serves a local model (Ollama)', async () => {
    model();
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: ['web_search="live"', 'model_provider="ollama"'], configEnv: { CODEX_OSS_BASE_URL: server.url } });
    await thread.runTurn(say('hello'));
    expect(server.requests[0]!.toolNames()).not.toContain('web_search');
    expect(server.requests[0]!.toolNames()).toContain('apply_patch');
  });

  it('view_image sends the image as input_image content and tells the client', async () => {
    writeFileSync(path.join(fixture.cwd, 'dot.png'), PNG);
    server.expect([sse(functionCall('view_image', { path: 'dot.png' }, { callId: 'call_img' }), completed()), sse(assistantMessage('A dot.'), completed())]);
    const { thread, events } = await fixture.openThread('"never"', undefined);
    await thread.runTurn(say('look'));
    const output = server.requests[1]!.body!.input.find((item) => item.type === 'function_call_output' && item.call_id === 'call_img');
    expect(output?.output).toEqual([{ type: 'input_image', image_url: `data:image/png;base64,${PNG.toString('base64')}`, detail: 'original' }]);
    expect(events.find((event) => event.type === 'imageViewed')).toMatchObject({ callId: 'call_img', path: path.join(fixture.cwd, 'dot.png') });
  });

  it('view_image refuses a file that is not an image, and the model reads why', async () => {
    writeFileSync(path.join(fixture.cwd, 'fake.png'), 'plain text');
    server.expect([sse(functionCall('view_image', { path: 'fake.png' }, { callId: 'call_img' }), completed()), sse(assistantMessage('Not an image.'), completed())]);
    const { thread } = await fixture.openThread('"never"', undefined);
    await thread.runTurn(say('look'));
    expect(server.requests[1]!.toolOutputText('call_img')).toMatch(/not .*image/i);
  });

  it('request_user_input asks the client and returns its answers to the model', async () => {
    const questions = [{ id: 'color', header: 'Colour', question: 'Which colour?', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }];
    server.expect([sse(functionCall('request_user_input', { questions }, { callId: 'call_ask' }), completed()), sse(assistantMessage('Red it is.'), completed())]);
    const client = new ScriptedClient({ answers: [{ color: { answers: ['Red'] } }] });
    const { thread } = await fixture.openThread('"never"', client);
    await thread.runTurn(say('pick'));
    expect(client.inputRequests).toEqual([
      {
        turnId: expect.any(String) as string,
        callId: 'call_ask',
        questions: [{ id: 'color', header: 'Colour', question: 'Which colour?', options: questions[0]!.options, isOther: true, isSecret: false }],
      },
    ]);
    expect(server.requests[1]!.toolOutputText('call_ask')).toBe('{"answers":{"color":{"answers":["Red"]}}}');
  });
});
