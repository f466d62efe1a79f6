// Child process of the concurrency test: opens the shared home's FileThreadStore and writes threads,
// each with a few turns, while other processes do the same.
import { FileThreadStore } from '../../dist/index.js';

const [home, worker, threadCount, turnCount] = process.argv.slice(2);
const store = await FileThreadStore.open({ home, onIndexError: (error) => process.stderr.write(`index error: ${error}\n`) });
for (let thread = 0; thread < Number(threadCount); thread += 1) {
  const writer = await store.createThread({ meta: { cwd: `/worker-${worker}`, source: Number(worker) % 2 === 0 ? 'exec' : 'vscode', model_provider: 'mock' } });
  for (let turn = 0; turn < Number(turnCount); turn += 1) {
    const turnId = `w${worker}-t${thread}-turn${turn}`;
    await writer.append(
      { type: 'event_msg', payload: { type: 'task_started', turn_id: turnId } },
      { type: 'turn_context', payload: { turn_id: turnId, cwd: `/worker-${worker}`, model: 'gpt-5.5' } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `question ${turnId}` }] } },
      { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `answer ${turnId}` }] } },
      { type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId } },
    );
  }
  await writer.close();
}
// Reconciling while the others still write must not corrupt their rows.
await store.reconcile();
store.close();
process.stdout.write('done\n');
