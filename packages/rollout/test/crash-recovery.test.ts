// A process writing a thread is killed with SIGKILL at random points; every turn it had completed
// before the kill is recovered on the next read, and the thread can be resumed and written on.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RolloutWriter, loadThread } from '../src/index.js';
import { assistantMessage, temporaryHome, userTurn } from './support/builders.js';

const CHILD = path.join(import.meta.dirname, 'children', 'crash-writer.mjs');
// Kill delays (ms after the child announced its file) and seeds for the child's item sizes.
const RUNS = [
  { seed: 1, killAfterMs: 0 },
  { seed: 2, killAfterMs: 15 },
  { seed: 3, killAfterMs: 40 },
  { seed: 4, killAfterMs: 75 },
  { seed: 5, killAfterMs: 120 },
  { seed: 6, killAfterMs: 200 },
  { seed: 7, killAfterMs: 333 },
  { seed: 8, killAfterMs: 500 },
];

let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

async function writeUntilKilled(seed: number, killAfterMs: number): Promise<{ path: string; completed: string[] }> {
  const child = spawn(process.execPath, [CHILD, home.home, String(seed)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const completed: string[] = [];
  let filePath = '';
  let timer: NodeJS.Timeout | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    const message = JSON.parse(line) as { path?: string; completed?: string };
    if (message.path !== undefined) {
      filePath = message.path;
      timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    }
    if (message.completed !== undefined) completed.push(message.completed);
  }
  clearTimeout(timer);
  expect(await exited).toBe('SIGKILL');
  return { path: filePath, completed };
}

describe('crash recovery', () => {
  it.each(RUNS)('recovers every completed turn after SIGKILL (seed $seed, kill after $killAfterMs ms)', async ({ seed, killAfterMs }) => {
    const { path: filePath, completed } = await writeUntilKilled(seed, killAfterMs);
    const thread = await loadThread(filePath);
    // Only the last line may be damaged: by a write the kill cut short.
    expect(thread.problems.filter((problem) => problem.kind !== 'torn-tail')).toEqual([]);
    const recovered = thread.turns.filter((turn) => turn.status === 'completed').map((turn) => turn.turnId);
    expect(recovered.slice(0, completed.length)).toEqual(completed);
    const texts = thread.history.map((entry) => (entry as { content?: { text?: string }[] }).content?.[0]?.text);
    for (const turnId of recovered) {
      const n = turnId?.slice('turn-'.length);
      expect(texts).toContain(`question ${n}`);
      expect(texts).toContain(`answer ${n}`);
    }

    // The dead writer's lock is taken over; its torn tail is cut; writing goes on.
    const writer = await RolloutWriter.resume(filePath, { home: home.home });
    await writer.append(...userTurn('after-crash', 'still here', assistantMessage('yes')));
    await writer.close();
    const resumed = await loadThread(filePath);
    expect(resumed.problems).toEqual([]);
    expect(resumed.turns.at(-1)).toMatchObject({ turnId: 'after-crash', status: 'completed' });
    expect(resumed.turns.filter((turn) => turn.status === 'completed').map((turn) => turn.turnId)).toEqual([...recovered, 'after-crash']);
  });

  it('refuses a second writer while the first process is alive', async () => {
    const child = spawn(process.execPath, [CHILD, home.home, '9'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let filePath = '';
    for await (const line of createInterface({ input: child.stdout })) {
      const message = JSON.parse(line) as { path?: string; completed?: string };
      filePath = message.path ?? filePath;
      if (message.completed !== undefined) break;
    }
    await expect(RolloutWriter.resume(filePath, { home: home.home })).rejects.toMatchObject({ code: 'WriterBusy', message: expect.stringContaining(`process ${child.pid}`) as string });
    child.kill('SIGKILL');
    await exited;
  });
});
