// The code-mode host process: reads the parent's messages (JSON lines on stdin), runs each cell in
// a fresh QuickJS isolate, and writes the cells' calls, output and ends as JSON lines on stdout. It
// gets no environment and no arguments from the parent beyond the cells themselves; when its input
// ends it exits, so it never outlives the parent.
import { createInterface } from 'node:readline';
import variant from '@jitl/quickjs-singlefile-cjs-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { HostMessage, ParentMessage } from '../host-protocol.js';
import { HostCell } from './cell.js';

const cells = new Map<number, HostCell>();

function send(message: HostMessage): void {
  if (message.type === 'done') cells.delete(message.cell);
  process.stdout.write(`${JSON.stringify(HostMessage.parse(message))}\n`);
}

function receive(module: QuickJSWASMModule, line: string): void {
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
      try {
        const cell = new HostCell(module, message, send);
        cells.set(message.cell, cell);
        cell.run(message.source);
      } catch (error) {
        // One cell's failure to start is that cell's: the host serves the others.
        send({ type: 'done', cell: message.cell, end: 'failed', error: `the cell could not start: ${error instanceof Error ? error.message : String(error)}` });
      }
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

async function main(): Promise<void> {
  // The engine's WebAssembly is inside this one file (the single-file build), so the host is
  // self-contained wherever it is copied (the skein executable carries it beside its bundle).
  // Node's typing sees the CommonJS module object, the bundler the variant inside it; the loader takes either.
  const module = await newQuickJSWASMModuleFromVariant(variant as unknown as QuickJSSyncVariant);
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => receive(module, line));
  input.on('close', () => process.exit(0));
  send({ type: 'ready' });
}

void main();
