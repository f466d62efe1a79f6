// A thread's code-mode cells: the host they run in (a process started by the first cell), their ids
// (1, 2, … per thread, as the model names them in `wait`), the values `store()` keeps for later
// cells, and the cells still running after their last answer.
import { CodeModeHost, type CellRun, type CellTool } from '@skein/code-mode';
import type { ToolContext } from '@skein/extension-api';
import type { CellBinding } from './cell-binding.js';

/**
 * Cells one thread may have running at once. Each isolate may hold 128 MiB in the host's one
 * WebAssembly memory, so this bounds what a model that keeps yielding cells can make the host hold.
 */
export const MAX_RUNNING_CELLS = 8;

export class CodeModeCells {
  readonly #host: CodeModeHost;
  readonly #store = new Map<string, string>();
  readonly #running = new Map<number, CellRun>();
  readonly #bindings = new Map<number, CellBinding>();
  #nextId = 1;

  constructor(host: CodeModeHost = new CodeModeHost()) {
    this.#host = host;
  }

  /** Why another cell cannot start now (too many still running), or undefined. */
  refusal(): string | undefined {
    const running = [...this.#running.values()].filter((run) => !run.done).map((run) => run.id);
    if (running.length < MAX_RUNNING_CELLS) return undefined;
    return `${running.length} cells are still running (${running.join(', ')}), the most one thread may have: end one with wait {cell_id, terminate: true}, or wait for one to finish, before starting another`;
  }

  /** Starts a cell with the next id, its nested calls bound to `binding`. */
  start(source: string, tools: (binding: CellBinding) => readonly CellTool[], binding: CellBinding, onNotify: (text: string) => void): CellRun {
    const run = this.#host.start({ id: this.#nextId++, source, tools: tools(binding), store: this.#store, onNotify });
    // Kept until its end is reported (by exec or a wait); see settled().
    this.#running.set(run.id, run);
    this.#bindings.set(run.id, binding);
    return run;
  }

  /** Binds the running cell `id`'s nested calls to `context` (a `wait` on it). */
  rebind(id: number, context: ToolContext): void {
    this.#bindings.get(id)?.rebind(context);
  }

  /** The cell `id` while it runs or its end is unreported. */
  find(id: number): CellRun | undefined {
    return this.#running.get(id);
  }

  /** After a report: a cell whose end was reported is forgotten (a later wait does not find it). */
  settled(run: CellRun): void {
    if (!run.done) return;
    this.#running.delete(run.id);
    this.#bindings.delete(run.id);
  }

  /** Ends every running cell and forgets it (the turn was interrupted: no wait picks them up). */
  async terminateAll(): Promise<void> {
    const runs = [...this.#running.values()];
    this.#running.clear();
    this.#bindings.clear();
    await Promise.all(runs.map((run) => run.terminate()));
  }

  async close(): Promise<void> {
    this.#running.clear();
    this.#bindings.clear();
    await this.#host.close();
  }
}
