// Harness overhead per model round trip: a one-sample turn through core (request building, SSE
// parsing, history, events) against the mock server, minus a bare fetch that reads the same stream.
import { performance } from 'node:perf_hooks';
import type { ModelProviderInfo } from '@skein/config';
import { ResponsesClient, ThreadHistory, ToolRouter, TurnToolCalls, findModelInfo, runTurn } from '@skein/core';
import { ResponseItem } from '@skein/protocol';
import { assistantMessage, completed, sse, startMockResponsesServer } from '@skein/test-support';

const ROUNDS = 300;
const WARMUP = 30;
const REPLY = assistantMessage(['Hello', ' from', ' the', ' mock', ' model.']);

const server = await startMockResponsesServer();
server.expect(Array.from({ length: 2 * (ROUNDS + WARMUP) }, () => sse(REPLY, completed())));
const provider: ModelProviderInfo = {
  id: 'mock', name: 'Mock', baseUrl: server.url, envKey: undefined, envKeyInstructions: undefined, wireApi: 'responses',
  queryParams: {}, httpHeaders: {}, envHttpHeaders: {}, requestMaxRetries: 0, streamMaxRetries: 0, streamIdleTimeoutMs: 30_000,
  requiresOpenaiAuth: false, supportsWebsockets: false, runsHostedTools: true,
};
const user = ResponseItem.parse({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] });
const body = JSON.stringify({ model: 'gpt-5.5', stream: true, input: [user] });

async function bareRoundTrip(): Promise<void> {
  const response = await fetch(`${server.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await response.text();
}

const client = new ResponsesClient({ provider, env: {} });
const router = new ToolRouter([]);
const refuse = () => Promise.reject(new Error('the benchmark runs no tools'));
const calls = new TurnToolCalls({
  router,
  environment: undefined,
  approvals: () => ({ command: refuse, retryWithoutSandbox: refuse, patch: refuse }),
  emit: () => undefined,
  newCallId: () => 'unused',
});
async function harnessRoundTrip(index: number): Promise<void> {
  const deps = {
    client,
    history: new ThreadHistory({ toolOutputTokenLimit: 10_000 }),
    router,
    calls,
    model: findModelInfo('gpt-5.5'),
    request: { promptCacheKey: 'bench', clientMetadata: {}, stripItemMetadata: true },
    emit: () => undefined,
    now: () => performance.now(),
  };
  const outcome = await runTurn(deps, { turnId: `t${index}`, input: [user], signal: new AbortController().signal });
  if (outcome.status !== 'completed') throw new Error(`turn ${index} ended ${outcome.status}`);
}

async function timeEach(run: (index: number) => Promise<void>): Promise<number[]> {
  for (let index = 0; index < WARMUP; index++) await run(index);
  const samples: number[] = [];
  for (let index = 0; index < ROUNDS; index++) {
    const start = performance.now();
    await run(index);
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const bare = await timeEach(bareRoundTrip);
const harness = await timeEach(harnessRoundTrip);
await server.close();

console.log(`round trips: ${ROUNDS} (after ${WARMUP} warm-up), mock server answering instantly`);
console.log(`bare fetch + read:      p50 ${percentile(bare, 50).toFixed(3)} ms   p95 ${percentile(bare, 95).toFixed(3)} ms`);
console.log(`runTurn (one sample):   p50 ${percentile(harness, 50).toFixed(3)} ms   p95 ${percentile(harness, 95).toFixed(3)} ms`);
console.log(`harness overhead (p50): ${(percentile(harness, 50) - percentile(bare, 50)).toFixed(3)} ms per model round trip`);
