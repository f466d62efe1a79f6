// Multi-agent v2 against the mock model (no environment: the cost measured is the runtime's, not a
// shell's). Part 1: spawn_agent → the sub-agent's first model request, over 30 spawns (median, p95):
// from the parent's request whose answer asks for the spawn to the sub-agent's first request.
// Part 2: a parent spawns 8 sub-agents at once, each doing 3 sampling requests (two calls, then its
// answer): wall time, RSS per sub-agent, and a sub-agent's turn against a lone thread's same turn.
import { performance } from 'node:perf_hooks';
import { createTestWorkspace, startTestThread } from '@skein/core/testing';
import { assistantMessage, completed, functionCall, matching, routed, sse, startMockResponsesServer, type CapturedRequest } from '@skein/test-support';

const SPAWNS = 30;
const CHILDREN = 8;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
const taskOf = (request: CapturedRequest) => /Task (\w+)\./.exec(JSON.stringify(request.body?.input))?.[1];
const samplings = (request: CapturedRequest) => (request.body?.input ?? []).filter((item) => item.type === 'function_call_output').length;
/** A sampling that calls a tool the thread does not have: a model round trip with an error output, no shell. */
const roundTrip = (index: number) => sse(functionCall('bench_noop', { index }), completed());

async function spawnLatency(): Promise<readonly number[]> {
  const server = await startMockResponsesServer();
  const workspace = createTestWorkspace();
  const arrivals = new Map<string, number>();
  const spawnedAt = new Map<string, number>();
  try {
    for (let index = 0; index < SPAWNS; index += 1) {
      const name = `w${index}`;
      server.expect([
        // The model's answer that asks for the spawn leaves the mock as this request arrives.
        matching(
          () => {
            spawnedAt.set(name, performance.now());
            return true;
          },
          sse(functionCall('spawn_agent', { task_name: name, message: `Task ${name}.` }, { namespace: 'collaboration', callId: `call_${name}` }), completed()),
        ),
        routed((request: CapturedRequest) => {
          if (!isChild(request) || taskOf(request) !== name) return false;
          arrivals.set(name, performance.now());
          return true;
        }, sse(assistantMessage('ok'), completed())),
        sse(assistantMessage('spawned'), completed()),
      ]);
    }
    const { thread } = await startTestThread(workspace, {
      modelUrl: server.url,
      hostEnv: process.env,
      environment: 'none',
      overrides: ['approval_policy="never"', 'features.multi_agent_v2.enabled=true', `features.multi_agent_v2.max_concurrent_threads_per_session=${SPAWNS}`],
    });
    for (let index = 0; index < SPAWNS; index += 1) await thread.runTurn(say(`Spawn w${index}.`));
    while (arrivals.size < SPAWNS) await new Promise((resolve) => setTimeout(resolve, 5));
    return [...arrivals].map(([name, at]) => at - (spawnedAt.get(name) ?? at));
  } finally {
    await workspace.close();
    await server.close();
  }
}

async function treeOfEight(): Promise<void> {
  const server = await startMockResponsesServer();
  const workspace = createTestWorkspace();
  const firstRequest = new Map<string, number>();
  const lastRequest = new Map<string, number>();
  const seen = (request: CapturedRequest, sampling: number) => {
    const task = taskOf(request);
    if (!isChild(request) || task === undefined || samplings(request) !== sampling) return false;
    if (sampling === 0) firstRequest.set(task, performance.now());
    if (sampling === 2) lastRequest.set(task, performance.now());
    return true;
  };
  try {
    const names = Array.from({ length: CHILDREN }, (_, index) => `c${index}`);
    server.expect([
      sse(...names.map((name) => functionCall('spawn_agent', { task_name: name, message: `Task ${name}.` }, { namespace: 'collaboration', callId: `call_${name}` })), completed()),
      ...names.flatMap((name) => [0, 1, 2].map((sampling) => routed((request: CapturedRequest) => seen(request, sampling) && taskOf(request) === name, sampling < 2 ? roundTrip(sampling) : sse(assistantMessage(`${name} done`), completed())))),
      ...names.map(() => sse(functionCall('wait_agent', { timeout_ms: 60_000 }, { namespace: 'collaboration' }), completed())),
      sse(assistantMessage('All done.'), completed()),
      // The lone thread: the same three samplings.
      roundTrip(0),
      roundTrip(1),
      sse(assistantMessage('lone done'), completed()),
    ]);
    const overrides = ['approval_policy="never"', 'features.multi_agent_v2.enabled=true', `features.multi_agent_v2.max_concurrent_threads_per_session=${CHILDREN}`];
    const { thread } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', overrides });
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    await thread.runTurn(say('Spawn eight and wait for each.'));
    const wall = performance.now() - started;
    const rssAfter = process.memoryUsage().rss;
    const childTurns = names.map((name) => (lastRequest.get(name) ?? 0) - (firstRequest.get(name) ?? 0));

    const lone = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', overrides: ['approval_policy="never"'] });
    const loneStarted = performance.now();
    await lone.thread.runTurn(say('Three samplings.'));
    const loneTurn = performance.now() - loneStarted;

    console.log(`8 sub-agents × 3 samplings: parent turn ${ms(wall)} wall (spawns, 8 waits, answer)`);
    console.log(`  sub-agent turn (first → third request): median ${ms(percentile(childTurns, 50))}, p95 ${ms(percentile(childTurns, 95))}; a lone thread's whole 3-sampling turn ${ms(loneTurn)}`);
    console.log(`  RSS ${((rssAfter - rssBefore) / CHILDREN / 1024 / 1024).toFixed(2)} MiB per sub-agent (${(rssBefore / 1024 / 1024).toFixed(0)} → ${(rssAfter / 1024 / 1024).toFixed(0)} MiB, no forced GC)`);
  } finally {
    await workspace.close();
    await server.close();
  }
}

const latencies = await spawnLatency();
console.log(`spawn_agent → sub-agent's first request (${SPAWNS} spawns, from the model's spawn answer to the sub-agent's request): median ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}`);
await treeOfEight();
