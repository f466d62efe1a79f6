// Child process of the crash test: writes turns into a new thread until it is killed, reporting
// each turn on stdout once `append` has resolved (the turn's last line written and fsynced).
import { RolloutWriter } from '../../dist/index.js';

const [home, seedText] = process.argv.slice(2);
let seed = Number(seedText);
// A small deterministic generator, so each run's item sizes are reproducible from its seed.
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

const writer = await RolloutWriter.create({ home, meta: { cwd: '/workspace', source: 'exec', model_provider: 'mock' } });
process.stdout.write(`${JSON.stringify({ path: writer.path, threadId: writer.threadId })}\n`);
for (let turn = 0; ; turn += 1) {
  const turnId = `turn-${turn}`;
  const callId = `call-${turn}`;
  await writer.append(
    { type: 'event_msg', payload: { type: 'task_started', turn_id: turnId } },
    { type: 'turn_context', payload: { turn_id: turnId, cwd: '/workspace', model: 'gpt-5.5' } },
    { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `question ${turn}` }] } },
    { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"cat big"}', call_id: callId } },
  );
  // Large outputs make some kills land in the middle of a write.
  const output = 'o'.repeat(Math.floor(random() * 400_000));
  await writer.append({ type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output } });
  await writer.append(
    { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `answer ${turn}` }] } },
    { type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId } },
  );
  process.stdout.write(`${JSON.stringify({ completed: turnId })}\n`);
}
