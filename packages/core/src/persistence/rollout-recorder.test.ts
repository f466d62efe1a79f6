// What a client's turn/completed waits for: the turn's last lines handed to the OS, not the fsync
// that makes them survive a power loss (that one is the turn's own `flush`). A real writer on a real
// file; only its fsyncs are held at a gate this test opens.
import { open, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RolloutWriter, type OpenFile } from '@skein/rollout';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RolloutThreadRecorder } from './rollout-recorder.js';

let home: string;
beforeEach(async () => (home = await mkdtemp(path.join(tmpdir(), 'skein-recorder-'))));
afterEach(() => rm(home, { recursive: true, force: true }));

/** Opens files for real; each `datasync` waits until `release()` once `hold()` was called. */
function gatedSyncs() {
  let held = false;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let waiting = 0;
  const openFile: OpenFile = async (filePath, flags) => {
    const handle = await open(filePath, flags);
    return new Proxy(handle, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        if (property !== 'datasync') return method.bind(target);
        return async () => {
          if (held) {
            waiting += 1;
            await gate;
          }
          return method.apply(target);
        };
      },
    });
  };
  return { openFile, hold: () => void (held = true), release: () => release(), waiting: () => waiting };
}

it("is written once a turn's end reaches the file, while its fsync is still running; flush waits for the fsync", async () => {
  const syncs = gatedSyncs();
  const writer = await RolloutWriter.create({ home, meta: { cwd: home }, openFile: syncs.openFile });
  const recorder = new RolloutThreadRecorder(writer);
  syncs.hold();
  recorder.recordEvent({ type: 'turnStarted', turnId: 't1' });
  recorder.recordEvent({ type: 'turnCompleted', turnId: 't1', lastAgentMessage: 'done' });
  await recorder.written();
  const lines = (await readFile(writer.path, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { payload: { type?: string } });
  expect(lines.at(-1)?.payload.type).toBe('task_complete');
  expect(syncs.waiting()).toBe(1);

  let flushed = false;
  const flushing = recorder.flush().then(() => (flushed = true));
  // The held fsync is the only thing left: a flush that did not wait for it would be done by now.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(flushed).toBe(false);
  expect(syncs.waiting()).toBe(1);
  syncs.release();
  await flushing;
  await recorder.close();
});
