// Listing and calling the tools of a real SDK server (test-support's fixture), over stdio and over
// streamable HTTP: results, failures the tool reports, progress, argument checks, and the faults a
// call can meet (a server that dies mid-call, one that hangs, one that answers garbage).
import { MCP_FIXTURE_SERVER, startMcpHttpFixture } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import type { McpProgress, McpServerConfig } from '../src/index.js';
import { closedAfterEach, failure } from './harness.js';
import { hostEnv } from './servers.js';

const { connect } = closedAfterEach();
const fixture = (behaviour = 'tools'): McpServerConfig => ({ command: process.execPath, args: [MCP_FIXTURE_SERVER, behaviour] });

describe('MCP tools over stdio', () => {
  it('lists the tools and says who the server is', async () => {
    const client = await connect('fixture', fixture(), { env: hostEnv() });
    const tools = await client.tools();
    expect(tools.map((tool) => tool.name)).toEqual(['get_weather', 'slow', 'fail', 'big', 'image', 'structured', 'exit', 'echo', 'ask', 'ask_url']);
    expect(tools[0]).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'The city name.' } }, required: ['city'] },
      annotations: { readOnlyHint: true },
    });
    expect(client.describe()).toEqual({
      serverInfo: { name: 'skein-mcp-fixture', title: 'Skein MCP fixture', version: '1.2.3' },
      capabilities: { tools: {}, resources: {} },
      instructions: 'Fixture tools for tests.',
    });
  });

  it('calls a tool, keeps structured content and reports a failure the tool itself returns', async () => {
    const client = await connect('fixture', fixture(), { env: hostEnv() });
    expect(await client.callTool('get_weather', { city: 'Paris' })).toEqual({ content: [{ type: 'text', text: 'Weather in Paris: sunny, 21 C' }] });
    expect(await client.callTool('structured', {})).toEqual({ content: [{ type: 'text', text: '{"temperature":21}' }], structuredContent: { temperature: 21 } });
    expect(await client.callTool('fail', {})).toEqual({ content: [{ type: 'text', text: 'the fixture failed on purpose' }], isError: true });
  });

  it('passes progress notifications on while the call runs', async () => {
    const client = await connect('fixture', fixture(), { env: hostEnv() });
    const progress: McpProgress[] = [];
    const result = await client.callTool('slow', { ms: 40 }, { onProgress: (update) => progress.push(update) });
    expect(result.content).toEqual([{ type: 'text', text: 'waited 40 ms' }]);
    // Step 1 always arrives while the call runs. The SDK handles a progress notification a microtask
    // after reading it but a response at once: when a busy machine reads step 2 and the result in
    // one chunk, the call's progress handler is gone before step 2 reaches it. So step 2 may be missing.
    const steps = [
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ];
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(progress.length === 1 ? [...progress, steps[1]] : progress).toEqual(steps);
  });

  it("checks arguments against the tool's input schema", async () => {
    const client = await connect('fixture', fixture(), { env: hostEnv() });
    const [weather] = await client.tools();
    expect(client.argumentProblem(weather!, { city: 'Oslo' })).toBeUndefined();
    expect(client.argumentProblem(weather!, { city: 3 })).toMatch(/city must be string/);
    expect(client.argumentProblem(weather!, {})).toMatch(/must have required property 'city'/);
  });

  it('reports a server that exits mid-call as Disconnected, with its stderr', async () => {
    const client = await connect('fixture', fixture(), { env: hostEnv() });
    const error = await failure(client.callTool('exit', {}));
    expect(error.code).toBe('Disconnected');
    expect(error.message).toContain('fixture: exiting mid-call');
    expect(client.isOpen).toBe(false);
  });

  it('ends a call that outlives its timeout as RequestTimeout; the connection stays usable', async () => {
    const client = await connect('fixture', fixture(), { env: hostEnv() });
    const error = await failure(client.callTool('slow', { ms: 5_000 }, { timeoutMs: 100 }));
    expect(error.code).toBe('RequestTimeout');
    expect((await client.callTool('echo', { text: 'still here' })).content).toEqual([{ type: 'text', text: '{"text":"still here"}' }]);
  });

  it('refuses a result whose content is not a list as InvalidResponse', async () => {
    const client = await connect('fixture', fixture('malformed'), { env: hostEnv() });
    expect((await failure(client.callTool('echo', {}))).code).toBe('InvalidResponse');
  });
});

describe('MCP tools over streamable HTTP', () => {
  it('lists and calls tools', async () => {
    const http = await startMcpHttpFixture();
    try {
      const client = await connect('remote', { url: http.url }, { env: hostEnv() });
      expect((await client.tools()).length).toBe(10);
      expect(await client.callTool('get_weather', { city: 'Lima' })).toEqual({ content: [{ type: 'text', text: 'Weather in Lima: sunny, 21 C' }] });
      await client.close();
    } finally {
      await http.close();
    }
  });
});

describe('elicitations a server sends', () => {
  it('passes form and URL elicitations to onElicitation and its answer back to the server', async () => {
    const seen: unknown[] = [];
    const client = await connect('fixture', fixture(), {
      env: hostEnv(),
      onElicitation: (request) => {
        seen.push(request);
        return Promise.resolve(request.mode === 'form' ? { action: 'accept', content: { name: 'Ada' } } : { action: 'decline' });
      },
    });
    expect((await client.callTool('ask', {})).content).toEqual([{ type: 'text', text: '{"action":"accept","content":{"name":"Ada"}}' }]);
    expect((await client.callTool('ask_url', {})).content).toEqual([{ type: 'text', text: '{"action":"decline"}' }]);
    expect(seen).toEqual([
      { mode: 'form', message: 'Who is asking?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } },
      { mode: 'url', message: 'Sign in to continue.', url: 'https://example.com/sign-in', elicitationId: 'sign-in-1' },
    ]);
  });

  it('declares no elicitation support without a handler, so the server cannot ask', async () => {
    const client = await connect('fixture', fixture(), { env: hostEnv() });
    const failed = await failure(client.callTool('ask', {}));
    expect(failed.code).toBe('ServerError');
  });
});
