// The parent's side of the code-mode host: spawns the host process on first use (with an empty
// environment and a bounded heap), starts cells in it, answers their tool calls, and collects what
// they print. A host that dies fails the cells it ran; the next cell starts a new one.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CellRun, MAX_CALLS_PER_CELL, type CellTool } from './cell-run.js';
import { HostMessage, type CellLimits, type ParentMessage } from './host-protocol.js';

/** The host program's file name: one self-contained script, which a bundler may copy beside its bundle. */
export const CODE_MODE_HOST_FILE = 'code-mode-host.cjs';

/** The host program: beside this module (this package's dist, or a bundle that copied it there); from the sources (tests), the built one. */
function hostScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, CODE_MODE_HOST_FILE);
  return existsSync(beside) ? beside : path.join(here, '..', 'dist', CODE_MODE_HOST_FILE);
}

/** Limits each cell runs under unless the host is given others. */
export const DEFAULT_CELL_LIMITS: CellLimits = { memoryBytes: 128 * 1024 * 1024, cpuSliceMs: 10_000 };

/** How a host is set up. */
export interface CodeModeHostOptions {
  readonly limits?: Partial<CellLimits>;
  /** The host process's V8 heap cap in MiB (the host's own objects; each isolate has `memoryBytes`). */
  readonly hostHeapMiB?: number;
  /** Tool calls one cell may make (default MAX_CALLS_PER_CELL). */
  readonly maxCallsPerCell?: number;
}

/** What a cell is started with. */
export interface CellStartOptions {
  /** The cell's id in its session (`Script running with cell ID <n>`). */
  readonly id: number;
  readonly source: string;
  readonly tools: readonly CellTool[];
  /** The session's `store()` values (JSON text per key); the cell's stores are written back to it. */
  readonly store: Map<string, string>;
  /** `notify(text)`: output the model should see while the cell runs. */
  readonly onNotify?: (text: string) => void;
}

export class CodeModeHost {
  readonly #limits: CellLimits;
  readonly #heapMiB: number;
  readonly #maxCalls: number;
  #process: ChildProcessWithoutNullStreams | undefined;
  readonly #runs = new Map<number, CellRun>();
  #closed = false;

  constructor(options: CodeModeHostOptions = {}) {
    this.#limits = { ...DEFAULT_CELL_LIMITS, ...options.limits };
    this.#heapMiB = options.hostHeapMiB ?? 512;
    this.#maxCalls = options.maxCallsPerCell ?? MAX_CALLS_PER_CELL;
  }

  /** Starts a cell; its run reports the cell's output and end. */
  start(options: CellStartOptions): CellRun {
    if (this.#closed) throw new Error('the code-mode host is closed');
    if (this.#runs.has(options.id)) throw new Error(`cell ${options.id} is already running`);
    const run = new CellRun(options, { send: (message) => this.#send(message), stuck: () => this.#recycle('a cell did not end when it was terminated'), maxCalls: this.#maxCalls });
    this.#runs.set(options.id, run);
    void run.ended.then(() => this.#runs.delete(options.id));
    this.#send({ type: 'start', cell: options.id, source: options.source, tools: options.tools.map(({ name, description }) => ({ name, description })), store: Object.fromEntries(options.store), limits: this.#limits });
    return run;
  }

  /** The host process's id while it runs (for measurements). */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** The cells still running. */
  get running(): number {
    return this.#runs.size;
  }

  /** Terminates every cell and stops the host process. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const run of this.#runs.values()) run.fail('the code-mode host closed');
    const child = this.#process;
    this.#process = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  /** Kills a host that stopped answering: its cells fail, and the next cell starts a new one. */
  #recycle(reason: string): void {
    const child = this.#process;
    this.#process = undefined;
    for (const run of this.#runs.values()) run.fail(`the code-mode host was restarted: ${reason}`);
    child?.kill('SIGKILL');
  }

  #send(message: ParentMessage): void {
    const child = this.#host();
    child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #host(): ChildProcessWithoutNullStreams {
    if (this.#process !== undefined) return this.#process;
    // No environment: a cell cannot read the parent's secrets even if it escaped its isolate. (The
    // isolates' heaps are in the engine's WebAssembly memory, bounded per cell by `memoryBytes`; the
    // heap cap bounds the host's own JavaScript.)
    const child = spawn(process.execPath, [`--max-old-space-size=${this.#heapMiB}`, hostScript()], { env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#process = child;
    child.stdin.on('error', () => undefined);
    // A host that cannot be started (no processes left, say) fails its cells; the next cell tries again.
    child.once('error', (error) => {
      if (this.#process === child) this.#process = undefined;
      for (const run of this.#runs.values()) run.fail(`the code-mode host could not run: ${error.message}`);
    });
    child.stderr.on('data', () => undefined);
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => this.#receive(line));
    child.once('exit', (code, signal) => {
      if (this.#process === child) this.#process = undefined;
      for (const run of this.#runs.values()) run.fail(`the code-mode host exited (${signal ?? `code ${code ?? 'unknown'}`})`);
    });
    return child;
  }

  #receive(line: string): void {
    let parsed: HostMessage;
    try {
      parsed = HostMessage.parse(JSON.parse(line));
    } catch {
      return;
    }
    if (parsed.type === 'ready') return;
    this.#runs.get(parsed.cell)?.receive(parsed);
  }
}
