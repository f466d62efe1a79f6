// The harness's share of compacting a 20,000-item thread, the model excluded: the compaction
// request's body (the whole history plus the summary request, serialised as it goes on the wire),
// and the replacement history built from the history and the summary.
import { performance } from 'node:perf_hooks';
import { BUILT_IN_CONTEXT_FRAGMENTS, randomUuidV7, type ResponseItem } from '@skein/protocol';
import { HANDOFF_SUMMARY_REQUEST, buildReplacementHistory, buildResponsesBody, findModelInfo } from '@skein/core';

const ITEMS = 20_000;
const RUNS = 20;
const WARMUP = 3;

// A thread of turns: a prompt, an answer, then a tool call and its output, repeated.
function thread(): ResponseItem[] {
  const items: ResponseItem[] = [];
  for (let turn = 0; items.length < ITEMS; turn++) {
    const id = (kind: string) => `${kind}_${randomUuidV7()}`;
    items.push({ type: 'message', role: 'user', id: id('msg'), content: [{ type: 'input_text', text: `turn ${turn}: please look at file ${turn}.ts and fix the failing test` }] });
    items.push({ type: 'function_call', id: id('fc'), call_id: `call_${turn}`, name: 'exec_command', arguments: JSON.stringify({ cmd: `cat src/file-${turn}.ts` }) });
    items.push({ type: 'function_call_output', id: id('fco'), call_id: `call_${turn}`, output: 'export const value = 1;\n'.repeat(20) });
    items.push({ type: 'message', role: 'assistant', id: id('msg'), content: [{ type: 'output_text', text: `Fixed file ${turn}.ts: the export was wrong.` }] });
  }
  return items.slice(0, ITEMS);
}

const history = thread();
const model = findModelInfo('gpt-5.5');
const summaryRequest: ResponseItem = { type: 'message', role: 'user', id: `msg_${randomUuidV7()}`, content: [{ type: 'input_text', text: HANDOFF_SUMMARY_REQUEST }] };
const context: ResponseItem[] = [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>…</permissions instructions>' }] }];

function compactOnce(): { readonly bodyBytes: number; readonly replacementItems: number } {
  const body = buildResponsesBody({ model, input: [...history, summaryRequest], tools: [], compaction: true, promptCacheKey: 'bench', clientMetadata: {}, stripItemMetadata: true });
  const wire = JSON.stringify(body);
  const replacement = buildReplacementHistory({ context, history, summary: 'The summary.', contextFragments: BUILT_IN_CONTEXT_FRAGMENTS, turnId: 'bench', uuid: randomUuidV7 });
  return { bodyBytes: Buffer.byteLength(wire), replacementItems: replacement.length };
}

for (let index = 0; index < WARMUP; index++) compactOnce();
const samples: number[] = [];
let last = compactOnce();
for (let index = 0; index < RUNS; index++) {
  const start = performance.now();
  last = compactOnce();
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
const percentile = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;

console.log(`compaction of a ${ITEMS}-item thread, model excluded: ${RUNS} runs after ${WARMUP} warm-up`);
console.log(`request body ${(last.bodyBytes / 1e6).toFixed(1)} MB; replacement history ${last.replacementItems} items (prompts kept within the token bound)`);
console.log(`body + serialisation + replacement: p50 ${percentile(50).toFixed(1)} ms   p95 ${percentile(95).toFixed(1)} ms`);
