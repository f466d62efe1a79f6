// The harness's share of compacting a 20,000-item thread, the model excluded: the compaction
// request's body (the whole history plus the summary request, serialised as it goes on the wire),
// and the replacement history built from the history and the summary. Then what compactions cost a
// resume: reading back a 2,000-turn rollout with 50 `compacted` lines against one with none.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { RolloutWriter, loadThread, type RolloutItem } from '@skein/rollout';
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

// Resume: the same 2,000 turns, with and without a compaction every 40 turns.
const TURNS = 2_000;
const COMPACTIONS = 50;
const LOADS = 8;
const root = await mkdtemp(path.join(tmpdir(), 'skein-compaction-bench-'));

function turnLines(turn: number): RolloutItem[] {
  const turnId = `turn-${turn}`;
  return [
    { type: 'event_msg', payload: { type: 'task_started', turn_id: turnId } },
    { type: 'response_item', payload: { type: 'message', id: `msg_u${turn}`, role: 'user', content: [{ type: 'input_text', text: `Please fix file ${turn}.` }] } },
    { type: 'response_item', payload: { type: 'function_call', id: `fc_${turn}`, name: 'exec_command', arguments: '{"cmd":"make test"}', call_id: `call_${turn}` } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${turn}`, output: 'ok\n'.repeat(200) } },
    { type: 'response_item', payload: { type: 'message', id: `msg_a${turn}`, role: 'assistant', content: [{ type: 'output_text', text: `Fixed file ${turn}.` }] } },
    { type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId, last_agent_message: `Fixed file ${turn}.` } },
  ];
}

async function writeThread(withCompactions: boolean): Promise<string> {
  const home = path.join(root, withCompactions ? 'compacted' : 'plain');
  const writer = await RolloutWriter.create({ home, durability: 'none', meta: { cwd: '/workspace', source: 'exec', model_provider: 'mock' } });
  const every = TURNS / COMPACTIONS;
  let previous = randomUuidV7();
  const first = previous;
  for (let turn = 0; turn < TURNS; turn++) {
    await writer.append(...turnLines(turn));
    if (!withCompactions || (turn + 1) % every !== 0) continue;
    const windowId = randomUuidV7();
    const prompts: ResponseItem[] = Array.from({ length: Math.min(turn + 1, 200) }, (_, index) => ({ type: 'message', role: 'user', id: `msg_u${turn - index}`, content: [{ type: 'input_text', text: `Please fix file ${turn - index}.` }] }));
    const replacement = [...context, ...prompts.reverse(), { type: 'message' as const, role: 'user' as const, id: `msg_s${turn}`, content: [{ type: 'input_text' as const, text: 'The summary so far.' }] }];
    const windowNumber = (turn + 1) / every;
    await writer.append({ type: 'compacted', payload: { message: 'The summary so far.', replacement_history: replacement, window_number: windowNumber, window_id: windowId, first_window_id: first, previous_window_id: previous } });
    previous = windowId;
  }
  await writer.close();
  return writer.path;
}

async function loadTimes(file: string): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < LOADS; index++) {
    const start = performance.now();
    const loaded = await loadThread(file);
    times.push(performance.now() - start);
    if (loaded.history.length === 0) throw new Error('nothing was read back');
  }
  return times.sort((a, b) => a - b);
}

try {
  const plain = await loadTimes(await writeThread(false));
  const compacted = await loadTimes(await writeThread(true));
  const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
  console.log(`resume read of ${TURNS} turns, ${LOADS} loads each: no compaction p50 ${median(plain).toFixed(1)} ms; ${COMPACTIONS} compactions p50 ${median(compacted).toFixed(1)} ms`);
} finally {
  await rm(root, { recursive: true, force: true });
}
