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

/** One text() or notify(): longer ones are cut (the answer's token budget cuts them further). */
const MAX_TEXT_CHARS = 1024 * 1024;
/** One store() value, and all of a session's values together, as JSON text. */
const MAX_STORED_VALUE_CHARS = 1024 * 1024;
/** A key names a value; it is kept and sent to every later cell, so it is bounded and counted too. */
const MAX_STORED_KEY_CHARS = 1024;
const MAX_STORE_CHARS = 8 * 1024 * 1024;
/** Timers one cell may have pending. */
const MAX_TIMERS = 1000;
/** setTimeout's longest delay (Node's). */
const MAX_DELAY_MS = 2 ** 31 - 1;
const IMAGE_DETAILS = new Set(['auto', 'low', 'high', 'original']);
const IMAGE_URL = /^(data:image\/[a-z0-9.+-]+;base64,|https:\/\/)/i;

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
  /** The cell's JavaScript is running (the CPU limit applies only then). */
  #inSlice = false;
  #stop: Stop | undefined;
  #ended = false;
  /** The module's evaluation: a promise (top-level await), read with getPromiseState, which runs none of the cell's code. */
  #module: QuickJSHandle | undefined;
  #storeChars: number;

  constructor(module: QuickJSWASMModule, start: CellStart, send: (message: HostMessage) => void) {
    this.#id = start.cell;
    this.#send = send;
    this.#storeChars = Object.entries(start.store).reduce((sum, [key, json]) => sum + key.length + json.length, 0);
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
    this.#module = evaluated.value;
    this.#pump();
    // After the module's first slice, so what it printed before its first await precedes this on the stream.
    if (!this.#ended) this.#send({ type: 'started', cell: this.#id });
  }

  /** A tool's answer to call `call`: resumes the cell. */
  answer(call: number, outcome: { readonly ok: true; readonly json: string } | { readonly ok: false; readonly error: string }): void {
    const deferred = this.#pending.get(call);
    if (deferred === undefined || this.#ended) return;
    this.#pending.delete(call);
    this.#guard(() => {
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
    });
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
        if (what === 'text' || what === 'notify') this.#send({ type: what, cell: this.#id, text: text.length <= MAX_TEXT_CHARS ? text : `${text.slice(0, MAX_TEXT_CHARS)}\n…cut: this output was longer than ${MAX_TEXT_CHARS} characters` });
        if (what === 'image') {
          const image = JSON.parse(text) as { url?: unknown; detail?: unknown };
          // Only what the Responses API takes: a data: image or an https URL, and its own detail levels.
          if (typeof image.url !== 'string' || !IMAGE_URL.test(image.url)) return { error: vm.newError('image() takes a data:image/…;base64 URL or an https URL') };
          if (image.detail !== undefined && (typeof image.detail !== 'string' || !IMAGE_DETAILS.has(image.detail))) return { error: vm.newError('image() detail is one of auto, low, high, original') };
          this.#send({ type: 'image', cell: this.#id, url: image.url, ...(image.detail === undefined ? {} : { detail: image.detail }) });
        }
        return undefined;
      }),
    );
    set(
      'keep',
      vm.newFunction('keep', (key, json) => {
        if (this.#stop !== undefined) return undefined;
        const value = vm.getString(json);
        const name = vm.getString(key);
        if (name.length > MAX_STORED_KEY_CHARS) return { error: vm.newError(`store() keys are at most ${MAX_STORED_KEY_CHARS} characters`) };
        if (value.length > MAX_STORED_VALUE_CHARS) return { error: vm.newError(`store() keeps values of at most ${MAX_STORED_VALUE_CHARS} characters of JSON`) };
        if (this.#storeChars + name.length + value.length > MAX_STORE_CHARS) return { error: vm.newError(`store() keeps at most ${MAX_STORE_CHARS} characters of JSON in all`) };
        this.#storeChars += name.length + value.length;
        this.#send({ type: 'store', cell: this.#id, key: name, json: value });
        return undefined;
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
        if (this.#timers.size >= MAX_TIMERS) return { error: vm.newError(`a cell may have at most ${MAX_TIMERS} timers pending`) };
        const deferred = vm.newPromise();
        const ms = Math.min(Math.max(0, vm.getNumber(delay)), MAX_DELAY_MS);
        const timer = setTimeout(() => {
          this.#timers.delete(deferred);
          if (this.#ended) return;
          this.#guard(() => {
            deferred.resolve();
            deferred.dispose();
          });
          this.#pump();
        }, ms);
        this.#timers.set(deferred, timer);
        return deferred.handle;
      }),
    );
    vm.setProp(vm.global, HOST_BRIDGE, bridge);
    bridge.dispose();
  }

  /** Runs the cell's pending jobs (what a tool answer or timer resumed) in one slice, then sees whether the module settled. */
  #pump(): void {
    if (this.#ended) return;
    const result = this.#guard(() => this.#slice(() => this.#runtime.executePendingJobs()));
    if (this.#ended || result === undefined) return;
    if (result.error !== undefined) {
      this.#endAfterError(result.error);
      return;
    }
    if (this.#stop === 'exit') {
      this.#end('completed');
      return;
    }
    this.#settle();
  }

  /** Ends the cell once its module's promise settled (read without running any of the cell's code). */
  #settle(): void {
    if (this.#module === undefined || this.#ended) return;
    const state = this.#vm.getPromiseState(this.#module);
    if (state.type === 'pending') return;
    if (state.type === 'fulfilled') {
      // A module without top-level await may answer the module's value itself: that handle is #module's.
      if (state.notAPromise !== true) state.value.dispose();
      this.#end(this.#stop === 'terminate' ? 'terminated' : 'completed');
    } else {
      this.#endAfterError(state.error);
    }
  }

  /** Runs a call into the isolate; a failure there (out of memory, interrupted) fails this cell, never the host. */
  #guard<T>(body: () => T): T | undefined {
    try {
      return body();
    } catch (error) {
      if (this.#stop === 'exit') this.#end('completed');
      else this.#end('failed', `the cell's runtime failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Runs `body` as one slice of the cell's JavaScript, timed for the CPU limit. */
  #slice<T>(body: () => T): T {
    this.#sliceStartedAt = performance.now();
    this.#inSlice = true;
    try {
      return body();
    } finally {
      this.#inSlice = false;
    }
  }

  #shouldInterrupt(): boolean {
    if (this.#stop !== undefined) return true;
    // Outside a slice QuickJS runs only our own calls (resolving a promise, reading an error).
    if (!this.#inSlice) return false;
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
    this.#module?.dispose();
    this.#module = undefined;
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
