// Code mode: (1) a cell's start to its first nested call, on a warm host; (2) a cell making 100
// nested exec_command calls against 100 direct calls in a gpt-5.5 turn (the overhead per call, both
// through the whole turn machinery and the mock model); (3) the host process's RSS with 20 live cells.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CodeModeHost } from '@skein/code-mode';
import { createTestWorkspace, startTestThread } from '@skein/core/testing';
import { assistantMessage, completed, customToolCall, functionCall, sse, startMockResponsesServer } from '@skein/test-support';

const ms = (value: number) => `${value.toFixed(2)} ms`;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
const CALLS = 100;

async function cellStart(): Promise<void> {
  const host = new CodeModeHost();
  let firstCall = 0;
  const tool = { name: 'ping', description: '', call: () => ((firstCall = performance.now()), Promise.resolve('{}')) };
  await host.start({ id: 0, source: 'await tools.ping({});', tools: [tool], store: new Map() }).report(30_000);
  const samples: number[] = [];
  for (let id = 1; id <= 50; id += 1) {
    const started = performance.now();
    await host.start({ id, source: 'await tools.ping({});', tools: [tool], store: new Map() }).report(30_000);
    samples.push(firstCall - started);
  }
  console.log(`cell start → first nested call (warm host, median of 50): ${ms(median(samples))}`);
  const live = Array.from({ length: 20 }, (_, index) => host.start({ id: 100 + index, source: 'const keep = "x".repeat(1 << 16); await new Promise(() => {});', tools: [], store: new Map() }));
  await Promise.all(live.map((run) => run.report(200)));
  const status = readFileSync(`/proc/${host.pid}/status`, 'utf8');
  console.log(`host RSS with 20 live cells: ${status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? '?'} kB`);
  await host.close();
}

async function perCall(model: 'gpt-6.2-sol' | 'gpt-5.5'): Promise<number> {
  const server = await startMockResponsesServer();
  const workspace = createTestWorkspace();
  try {
    const { thread } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: [`model="${model}"`, 'approval_policy="never"', 'sandbox_mode="workspace-write"'] });
    const cell = `for (let i = 0; i < ${CALLS}; i++) await tools.exec_command({ cmd: "true" });`;
    const calls = model === 'gpt-5.5' ? Array.from({ length: CALLS }, (_, index) => sse(functionCall('exec_command', { cmd: 'true' }, { callId: `c${index}` }), completed())) : [sse(customToolCall('exec', cell, { callId: 'cell' }), completed())];
    server.expect([...calls, sse(assistantMessage('Done.'), completed())]);
    const started = performance.now();
    await thread.runTurn(say('run true a hundred times'));
    return (performance.now() - started) / CALLS;
  } finally {
    await workspace.close();
    await server.close();
  }
}

await cellStart();
const nested = await perCall('gpt-6.2-sol');
const direct = await perCall('gpt-5.5');
console.log(`exec_command "true" ×${CALLS}: nested in one cell ${ms(nested)} per call, direct (one model request each) ${ms(direct)} per call`);
