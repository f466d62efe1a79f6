// One cell in the host: a fresh QuickJS runtime and context (its own heap, atoms and GC, bounded by
// a memory limit), the prelude's globals, then the cell's source as the ES module `exec_main.mjs`.
// The cell's JavaScript runs only in slices — the module's first run, then each time a tool answer
// or a timer resumes it — and an interrupt handler ends a slice that runs past its CPU limit, or a
// cell that called exit() or was terminated.
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { CellEnd, CellLimits, CellToolInfo, HostMessage } from '../host-protocol.js';
import { CELL_PRELUDE, HOST_BRIDGE } from './cell-prelude.js';

/** What starts a cell. */
export interface CellStart {
  readonly cell: number;
  readonly source: string;
  readonly tools: readonly CellToolInfo[];
  readonly store: Readonly<Record<string, string>>;
  readonly limits: CellLimits;
}

/** What stops a cell's JavaScript at the next interrupt check. */
type Stop = 'exit' | 'terminate' | 'cpu';

export class HostCell {
  readonly #id: number;
  readonly #runtime: QuickJSRuntime;
  readonly #vm: QuickJSContext;
  readonly #send: (message: HostMessage) => void;
  readonly #limits: CellLimits;
  /** Tool calls and timers the cell awaits. */
  readonly #pending = new Map<number, QuickJSDeferredPromise>();
  readonly #timers = new Map<QuickJSDeferredPromise, NodeJS.Timeout>();
  #nextCall = 1;
  #sliceStartedAt = 0;
  #stop: Stop | undefined;
  #ended = false;

  constructor(module: QuickJSWASMModule, start: CellStart, send: (message: HostMessage) => void) {
    this.#id = start.cell;
    this.#send = send;
    this.#limits = start.limits;
    this.#runtime = module.newRuntime();
    this.#runtime.setMemoryLimit(start.limits.memoryBytes);
    this.#runtime.setMaxStackSize(1024 * 1024);
    this.#runtime.setInterruptHandler(() => this.#shouldInterrupt());
    // Modules resolve nothing: a cell has no filesystem and no packages.
    this.#runtime.setModuleLoader((name) => ({ error: new Error(`cannot import '${name}': a cell has no modules`) }));
    this.#vm = this.#runtime.newContext();
    this.#installBridge(start);
  }

  /** Runs the prelude, then the module; reports how the cell ends. */
  run(source: string): void {
    const prelude = this.#slice(() => this.#vm.evalCode(CELL_PRELUDE, 'prelude.js'));
    if (prelude.error !== undefined) {
      this.#end('failed', this.#describe(prelude.error));
      prelude.error.dispose();
      return;
    }
    prelude.value.dispose();
    const evaluated = this.#slice(() => this.#vm.evalCode(source, 'exec_main.mjs', { type: 'module' }));
    if (this.#ended) return;
    if (evaluated.error !== undefined) {
      this.#endAfterError(evaluated.error);
      return;
    }
    const settled = this.#vm.resolvePromise(evaluated.value);
    evaluated.value.dispose();
    this.#pump();
    // After the module's first slice, so what it printed before its first await precedes this on the stream.
    if (!this.#ended) this.#send({ type: 'started', cell: this.#id });
    void settled.then((result) => {
      if (this.#ended) {
        if (result.error === undefined) result.value.dispose();
        else result.error.dispose();
        return;
      }
      if (result.error === undefined) {
        result.value.dispose();
        this.#end(this.#stop === 'terminate' ? 'terminated' : 'completed');
      } else {
        this.#endAfterError(result.error);
      }
    });
  }

  /** A tool's answer to call `call`: resumes the cell. */
  answer(call: number, outcome: { readonly ok: true; readonly json: string } | { readonly ok: false; readonly error: string }): void {
    const deferred = this.#pending.get(call);
    if (deferred === undefined || this.#ended) return;
    this.#pending.delete(call);
    if (outcome.ok) {
      const value = this.#vm.newString(outcome.json);
      deferred.resolve(value);
      value.dispose();
    } else {
      const error = this.#vm.newError(outcome.error);
      deferred.reject(error);
      error.dispose();
    }
    deferred.dispose();
    this.#pump();
  }

  /** Ends the cell now: what it awaits is dropped. */
  terminate(): void {
    if (this.#ended) return;
    this.#stop = 'terminate';
    this.#end('terminated');
  }

  #installBridge(start: CellStart): void {
    const vm = this.#vm;
    const bridge = vm.newObject();
    const set = (name: string, handle: QuickJSHandle) => {
      vm.setProp(bridge, name, handle);
      handle.dispose();
    };
    set('tools', vm.newString(JSON.stringify(start.tools)));
    set('store', vm.newString(JSON.stringify(start.store)));
    set(
      'call',
      vm.newFunction('call', (name, json) => {
        const call = this.#nextCall++;
        const deferred = vm.newPromise();
        this.#pending.set(call, deferred);
        // After exit() nothing more leaves the cell: the call stays unanswered until the cell ends.
        if (this.#stop !== undefined) return deferred.handle;
        this.#send({ type: 'call', cell: this.#id, call, tool: vm.getString(name), json: vm.getString(json) });
        return deferred.handle;
      }),
    );
    set(
      'emit',
      vm.newFunction('emit', (kind, payload) => {
        if (this.#stop !== undefined) return;
        const what = vm.getString(kind);
        const text = vm.getString(payload);
        if (what === 'text' || what === 'notify') this.#send({ type: what, cell: this.#id, text });
        if (what === 'image') {
          const image = JSON.parse(text) as { url: string; detail?: string };
          this.#send({ type: 'image', cell: this.#id, url: image.url, ...(image.detail === undefined ? {} : { detail: image.detail }) });
        }
      }),
    );
    set(
      'keep',
      vm.newFunction('keep', (key, json) => {
        if (this.#stop !== undefined) return;
        this.#send({ type: 'store', cell: this.#id, key: vm.getString(key), json: vm.getString(json) });
      }),
    );
    set(
      'stop',
      vm.newFunction('stop', () => {
        this.#stop = 'exit';
        // Unwinds the cell at once; the interrupt handler ends it even if the cell catches this.
        return { error: vm.newError('exit') };
      }),
    );
    set(
      'give',
      vm.newFunction('give', () => {
        this.#send({ type: 'yield', cell: this.#id });
      }),
    );
    set(
      'after',
      vm.newFunction('after', (delay) => {
        const deferred = vm.newPromise();
        const timer = setTimeout(() => {
          this.#timers.delete(deferred);
          if (this.#ended) return;
          deferred.resolve();
          deferred.dispose();
          this.#pump();
        }, vm.getNumber(delay));
        this.#timers.set(deferred, timer);
        return deferred.handle;
      }),
    );
    vm.setProp(vm.global, HOST_BRIDGE, bridge);
    bridge.dispose();
  }

  /** Runs the cell's pending jobs (what a tool answer or timer resumed) in one slice. */
  #pump(): void {
    if (this.#ended) return;
    const result = this.#slice(() => this.#runtime.executePendingJobs());
    if (this.#ended) return;
    if (result.error !== undefined) {
      this.#endAfterError(result.error);
      return;
    }
    if (this.#stop === 'exit') this.#end('completed');
  }

  /** Runs `body` as one slice of the cell's JavaScript, timed for the CPU limit. */
  #slice<T>(body: () => T): T {
    this.#sliceStartedAt = performance.now();
    return body();
  }

  #shouldInterrupt(): boolean {
    if (this.#stop !== undefined) return true;
    if (performance.now() - this.#sliceStartedAt <= this.#limits.cpuSliceMs) return false;
    this.#stop = 'cpu';
    return true;
  }

  /** An error ended the cell's JavaScript: exit() and terminate() are not failures, the rest are. */
  #endAfterError(error: QuickJSHandle): void {
    if (this.#stop === 'exit') this.#end('completed');
    else if (this.#stop === 'terminate') this.#end('terminated');
    else if (this.#stop === 'cpu') this.#end('failed', `the cell ran for more than ${this.#limits.cpuSliceMs} ms without awaiting anything, and was stopped`);
    else this.#end('failed', this.#describe(error));
    error.dispose();
  }

  /** `Name: message` and the stack as a cell author reads it (`at exec_main.mjs:2:6`). */
  #describe(error: QuickJSHandle): string {
    const dumped: unknown = this.#vm.dump(error);
    if (typeof dumped !== 'object' || dumped === null) return `Uncaught ${String(dumped)}`;
    const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
    const head = `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : String(message)}`;
    const frames = typeof stack === 'string' ? stack.replaceAll(/at <anonymous> \((.*)\)/g, 'at $1').trimEnd() : '';
    return frames === '' ? head : `${head}\n${frames}`;
  }

  #end(end: CellEnd, error?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#send({ type: 'done', cell: this.#id, end, ...(error === undefined ? {} : { error }) });
    for (const [deferred, timer] of this.#timers) {
      clearTimeout(timer);
      deferred.dispose();
    }
    this.#timers.clear();
    for (const deferred of this.#pending.values()) deferred.dispose();
    this.#pending.clear();
    // Dispose after the current slice has unwound (an exit() ends the cell from inside a host call).
    setImmediate(() => {
      try {
        this.#vm.dispose();
        this.#runtime.dispose();
      } catch {
        // A cell ended mid-flight may leave objects QuickJS still counts; the runtime goes with the host's next GC.
      }
    });
  }
}
