// Thread search over 10 000 stored threads of 10 turns each (20 messages, ~200 000 in all): the
// first search (it reads every file into the FTS5 index), a search after one thread grew (it reads
// that file on), and steady-state searches for a rare term, a common one, a short one (scanned) and
// one that matches nothing, first page of 25.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileThreadStore, liveRolloutPath, serializeRolloutLine } from '@skein/rollout';

const THREADS = 10_000;
const TURNS = 10;
const QUERIES = 50;
const WORDS = ['parser', 'config', 'sandbox', 'rollout', 'socket', 'schema', 'token', 'cursor', 'buffer', 'thread', 'render', 'index', 'cache', 'retry', 'stream'];

const root = await mkdtemp(path.join(tmpdir(), 'skein-search-bench-'));
const ms = (value: number) => `${value.toFixed(1)} ms`;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

function message(role: 'user' | 'assistant', text: string, at: Date, ordinal: number): string {
  const part = role === 'user' ? { type: 'input_text', text } : { type: 'output_text', text };
  return serializeRolloutLine({ timestamp: at.toISOString(), ordinal }, { type: 'response_item', payload: { type: 'message', role, content: [part] } });
}

/** A sentence of ~12 words drawn from `WORDS`, deterministic in `seed`. */
function sentence(seed: number): string {
  return Array.from({ length: 12 }, (_, index) => WORDS[(seed * 7 + index * 13) % WORDS.length]).join(' ');
}

async function writeThreads(home: string): Promise<string[]> {
  const created = Date.parse('2026-01-01T00:00:00.000Z');
  const paths: string[] = [];
  for (let n = 0; n < THREADS; n += 1) {
    const id = `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
    const at = new Date(created + n * 60_000);
    const file = liveRolloutPath(home, id, at);
    await mkdir(path.dirname(file), { recursive: true });
    const lines = [serializeRolloutLine({ timestamp: at.toISOString(), ordinal: 0 }, { type: 'session_meta', payload: { session_id: id, id, timestamp: at.toISOString(), cwd: '/repo', source: 'vscode', model_provider: 'mock' } })];
    for (let turn = 0; turn < TURNS; turn += 1) {
      // One thread in a thousand mentions the rare word.
      const rare = turn === 3 && n % 1000 === 0 ? ' quetzalcoatl' : '';
      lines.push(message('user', `please look at the ${sentence(n + turn)}${rare}`, at, lines.length), message('assistant', `Done: ${sentence(n * 3 + turn)}.`, at, lines.length + 1));
    }
    await writeFile(file, `${lines.join('\n')}\n`);
    paths.push(file);
  }
  return paths;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

try {
  const home = path.join(root, 'home');
  const paths = await writeThreads(home);
  const store = await FileThreadStore.open({ home });
  const firstSearch = await timed(() => store.search({ term: 'quetzalcoatl' }));
  const found = (await store.search({ term: 'quetzalcoatl', limit: 100 })).data.length;
  if (found !== THREADS / 1000) throw new Error(`expected ${THREADS / 1000} threads with the rare term, found ${found}`);
  await appendFile(paths[0] ?? '', `${message('user', 'a brand new axolotl message', new Date(), 99)}\n`);
  await store.reconcile();
  const afterGrowth = await timed(() => store.search({ term: 'axolotl' }));
  const steady: Record<string, number[]> = { rare: [], common: [], short: [], none: [] };
  const terms: Record<string, string> = { rare: 'quetzalcoatl', common: 'parser', short: 'ok', none: 'nowhere-to-be-found' };
  for (let query = 0; query < QUERIES; query += 1) {
    for (const [kind, term] of Object.entries(terms)) steady[kind]?.push(await timed(() => store.search({ term, limit: 25 })));
  }
  store.close();
  console.log(`thread search over ${THREADS.toLocaleString('en-US')} threads, ${(THREADS * TURNS * 2).toLocaleString('en-US')} messages`);
  console.log(`  first search (reads every file into the index): ${ms(firstSearch)}`);
  console.log(`  search after one thread grew (reads that file on): ${ms(afterGrowth)}`);
  for (const [kind, times] of Object.entries(steady)) {
    console.log(`  ${kind} term '${terms[kind]}', first page of 25: p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
