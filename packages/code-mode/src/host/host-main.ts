// The code-mode host process: reads the parent's messages (JSON lines on stdin), runs each cell in
// a fresh QuickJS isolate, and writes the cells' calls, output and ends as JSON lines on stdout. It
// gets no environment and no arguments from the parent beyond the cells themselves; when its input
// ends it exits, so it never outlives the parent.
import { createInterface } from 'node:readline';
import { newQuickJSWASMModule, RELEASE_SYNC } from 'quickjs-emscripten';
import { HostMessage, ParentMessage } from '../host-protocol.js';
import { HostCell } from './cell.js';

const module = await newQuickJSWASMModule(RELEASE_SYNC);
const cells = new Map<number, HostCell>();

function send(message: HostMessage): void {
  if (message.type === 'done') cells.delete(message.cell);
  process.stdout.write(`${JSON.stringify(HostMessage.parse(message))}\n`);
}

function receive(line: string): void {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    process.stderr.write('code-mode host: a line that is not JSON was ignored\n');
    return;
  }
  const parsed = ParentMessage.safeParse(json);
  if (!parsed.success) {
    process.stderr.write(`code-mode host: a message that is not the protocol's was ignored: ${parsed.error.message}\n`);
    return;
  }
  const message = parsed.data;
  switch (message.type) {
    case 'start': {
      if (cells.has(message.cell)) return;
      const cell = new HostCell(module, message, send);
      cells.set(message.cell, cell);
      cell.run(message.source);
      return;
    }
    case 'result':
      cells.get(message.cell)?.answer(message.call, message.ok ? { ok: true, json: message.json } : { ok: false, error: message.error });
      return;
    case 'terminate':
      cells.get(message.cell)?.terminate();
      return;
  }
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', receive);
input.on('close', () => process.exit(0));
send({ type: 'ready' });
