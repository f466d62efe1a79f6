// MCP tools and tool_search, with test-support's fixture server (a real SDK server over stdio).
// Part 1: 10 servers of 50 tools each (500 deferred tools): the time to connect them, to build the
// BM25 index, its memory, and query latency (p50, p95) over 400 searches. Part 2: an MCP call inside
// a turn (item started → output) against the same call made directly with the client: Skein's
// overhead per call. Part 3: thread start → first model request while one server takes 10 s to start.
import { performance } from 'node:perf_hooks';
import { McpConnections, ToolSearchIndex, type CoreEvent } from '@skein/core';
import { createTestWorkspace, startTestThread } from '@skein/core/testing';
import { defineFunctionTool, type NamespaceToolHandler } from '@skein/extension-api';
import { assistantMessage, completed, functionCall, MCP_FIXTURE_SERVER, matching, sse, startMockResponsesServer } from '@skein/test-support';
import * as z from 'zod';

const SERVERS = 10;
const TOOLS_PER_SERVER = 50;
const QUERIES = 400;
const CALLS = 60;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
const median = (values: readonly number[]) => percentile(values, 50);
const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
const fixtureTable = (behaviour: string) => ({ command: process.execPath, args: [MCP_FIXTURE_SERVER, behaviour] });
const fixtureToml = (name: string, behaviour: string, extra = '') => `mcp_servers.${name}={command=${JSON.stringify(process.execPath)}, args=[${JSON.stringify(MCP_FIXTURE_SERVER)}, ${JSON.stringify(behaviour)}]${extra}}`;

async function searchIndex(): Promise<void> {
  const servers = Object.fromEntries(Array.from({ length: SERVERS }, (_, index) => [`s${index}`, fixtureTable(`many=${TOOLS_PER_SERVER}`)]));
  const connections = new McpConnections(servers, { env: process.env, onStatus: () => undefined, onWarning: (message) => console.warn(message) });
  let started = performance.now();
  connections.start();
  const ready = await connections.settled();
  console.log(`connect ${SERVERS} servers (${ready.reduce((sum, server) => sum + server.tools.length, 0)} tools): ${ms(performance.now() - started)}`);
  const namespaces: NamespaceToolHandler[] = ready.map((server) => ({
    kind: 'namespace',
    name: `mcp__${server.name}`,
    description: `Tools of ${server.name}.`,
    exposure: 'deferred',
    tools: server.tools.map((tool) =>
      defineFunctionTool({ spec: { type: 'function', name: tool.name, description: tool.description ?? '', strict: false, parameters: { ...tool.inputSchema, type: 'object' } }, arguments: z.unknown(), handle: () => Promise.resolve({ output: '', success: true }) }),
    ),
  }));
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const index = new ToolSearchIndex();
  started = performance.now();
  index.search(namespaces, 'warm up', 8);
  const build = performance.now() - started;
  globalThis.gc?.();
  console.log(`index build: ${ms(build)}, heap ${((process.memoryUsage().heapUsed - heapBefore) / 1024).toFixed(0)} KiB`);
  const words = ['weather', 'calendar event', 'send email', 'tickets', 'files', 'input 42', 'generated tool number 7', 'nothing matches this'];
  const latencies: number[] = [];
  for (let query = 0; query < QUERIES; query += 1) {
    started = performance.now();
    index.search(namespaces, words[query % words.length]!, 8);
    latencies.push(performance.now() - started);
  }
  console.log(`query (${QUERIES}, index cached, builds=${index.builds}): p50 ${ms(median(latencies))}, p95 ${ms(percentile(latencies, 95))}`);
  await connections.close();
}

async function callOverhead(): Promise<void> {
  // Direct: the client alone.
  const connections = new McpConnections({ direct: fixtureTable('tools') }, { env: process.env, onStatus: () => undefined, onWarning: () => undefined });
  connections.start();
  const [direct] = await connections.settled();
  const directTimes: number[] = [];
  for (let call = 0; call < CALLS; call += 1) {
    const started = performance.now();
    await direct!.client.callTool('echo', { text: `call ${call}` });
    directTimes.push(performance.now() - started);
  }
  await connections.close();

  // In a turn: from the call's item starting to its output being recorded.
  const server = await startMockResponsesServer();
  const workspace = createTestWorkspace();
  try {
    server.expect(Array.from({ length: CALLS }, (_, call) => [sse(functionCall('echo', { text: `call ${call}` }, { namespace: 'mcp__bench', callId: `call_${call}` }), completed()), sse(assistantMessage('ok'), completed())]).flat());
    const starts = new Map<string, number>();
    const turnTimes: number[] = [];
    const onEvent = (event: CoreEvent) => {
      const callId = String(event.type === 'itemStarted' || event.type === 'itemCompleted' ? event.item.call_id : '');
      if (event.type === 'itemStarted' && event.item.type === 'function_call') starts.set(callId, performance.now());
      if (event.type === 'itemCompleted' && event.item.type === 'function_call_output') turnTimes.push(performance.now() - (starts.get(callId) ?? performance.now()));
    };
    const { thread, events } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', overrides: ['approval_policy="never"', 'model="gpt-5.5"', fixtureToml('bench', 'tools', ', default_tools_approval_mode="approve"')] });
    // Timed as the events arrive: the test thread's list is watched as it grows.
    const record = events.push.bind(events);
    events.push = (...added: CoreEvent[]) => {
      for (const event of added) onEvent(event);
      return record(...added);
    };
    for (let call = 0; call < CALLS; call += 1) await thread.runTurn(say(`call ${call}`));
    console.log(`MCP echo call: direct median ${ms(median(directTimes))}, in a turn median ${ms(median(turnTimes))} (overhead ${ms(median(turnTimes) - median(directTimes))}), p95 in a turn ${ms(percentile(turnTimes, 95))}`);
    await thread.close();
  } finally {
    await workspace.close();
    await server.close();
  }
}

async function slowServerStart(): Promise<void> {
  const server = await startMockResponsesServer();
  const workspace = createTestWorkspace();
  try {
    let firstRequestAt = 0;
    server.expect([matching(() => ((firstRequestAt ||= performance.now()), true), sse(assistantMessage('hello'), completed()))]);
    const started = performance.now();
    const { thread } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', overrides: ['approval_policy="never"', 'model="gpt-5.5"', fixtureToml('sluggish', 'tools,start-delay=10000')] });
    await thread.runTurn(say('hi'));
    console.log(`thread start → first model request with a server taking 10 s to start: ${ms(firstRequestAt - started)}`);
    await thread.close();
  } finally {
    await workspace.close();
    await server.close();
  }
}

await searchIndex();
await callOverhead();
await slowServerStart();
