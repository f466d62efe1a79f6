// One running cell, seen from the parent: its tool calls answered, its output gathered until the
// next report, and how it ended. A report waits for the end, a yield, `yield_control()` or the
// caller's signal, and hands over the output since the last one (exec's, then each wait's).
import type { CellStartOptions } from './code-mode-host.js';
import type { CellEnd, HostMessage, ParentMessage } from './host-protocol.js';

/** A tool a cell may call: `call` takes the arguments as JSON text and answers JSON text; a thrown error rejects the cell's promise. */
export interface CellTool {
  readonly name: string;
  readonly description: string;
  call(json: string): Promise<string>;
}

/** One item of a cell's output. */
export type CellOutputItem = { readonly type: 'input_text'; readonly text: string } | { readonly type: 'input_image'; readonly image_url: string; readonly detail?: string };

/** What a cell did since the last report. */
export interface CellReport {
  readonly status: CellEnd | 'running';
  readonly items: readonly CellOutputItem[];
  /** Why it failed. */
  readonly error?: string;
  readonly wallTimeMs: number;
}

/** How many tool calls one cell may make; the ones after are refused (a runaway loop stays bounded). */
export const MAX_CALLS_PER_CELL = 1000;

export class CellRun {
  readonly id: number;
  readonly ended: Promise<void>;
  readonly #options: CellStartOptions;
  readonly #send: (message: ParentMessage) => void;
  readonly #createdAt = performance.now();
  /** When the cell's first slice ran (the host may still be starting when the cell is asked for). */
  #startedAt: number | undefined;
  #started!: () => void;
  readonly #running: Promise<void>;
  #unreported: CellOutputItem[] = [];
  #end: CellEnd | undefined;
  #error: string | undefined;
  #calls = 0;
  #markEnded!: () => void;
  #wake: (() => void) | undefined;
  /** yield_control() was called since the last report. */
  #yielded = false;

  constructor(options: CellStartOptions, send: (message: ParentMessage) => void) {
    this.id = options.id;
    this.#options = options;
    this.#send = send;
    this.ended = new Promise((resolve) => (this.#markEnded = resolve));
    this.#running = new Promise((resolve) => (this.#started = resolve));
  }

  get done(): boolean {
    return this.#end !== undefined;
  }

  /**
   * Waits up to `yieldMs` from the cell's start (less on `yield_control()` or `signal`) and reports
   * what happened since the last report.
   */
  async report(yieldMs: number, signal?: AbortSignal): Promise<CellReport> {
    // The yield time is the cell's own: a host still starting does not spend it.
    if (this.#startedAt === undefined) await Promise.race([this.#running, this.ended]);
    if (this.#end === undefined && !this.#yielded && !(signal?.aborted ?? false)) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        timer = setTimeout(resolve, yieldMs);
        onAbort = resolve;
        signal?.addEventListener('abort', onAbort, { once: true });
        void this.ended.then(resolve);
      });
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
      this.#wake = undefined;
    }
    const items = this.#unreported;
    this.#unreported = [];
    this.#yielded = false;
    return { status: this.#end ?? 'running', items, ...(this.#error === undefined ? {} : { error: this.#error }), wallTimeMs: performance.now() - this.#createdAt };
  }

  /** Ends the cell; its report says `terminated`. */
  async terminate(): Promise<void> {
    if (this.#end !== undefined) return;
    this.#send({ type: 'terminate', cell: this.id });
    await this.ended;
  }

  /** Ends the cell from this side (its host is gone). */
  fail(reason: string): void {
    this.#finish('failed', reason);
  }

  receive(message: Exclude<HostMessage, { type: 'ready' }>): void {
    switch (message.type) {
      case 'started':
        this.#startedAt = performance.now();
        this.#started();
        return;
      case 'text':
        this.#unreported.push({ type: 'input_text', text: message.text });
        return;
      case 'image':
        this.#unreported.push({ type: 'input_image', image_url: message.url, ...(message.detail === undefined ? {} : { detail: message.detail }) });
        return;
      case 'notify':
        this.#options.onNotify?.(message.text);
        return;
      case 'store':
        this.#options.store.set(message.key, message.json);
        return;
      case 'yield':
        this.#yielded = true;
        this.#wake?.();
        return;
      case 'call':
        void this.#call(message.call, message.tool, message.json);
        return;
      case 'done':
        this.#finish(message.end, message.error);
        return;
    }
  }

  async #call(call: number, name: string, json: string): Promise<void> {
    const answer = (outcome: { ok: true; json: string } | { ok: false; error: string }) => {
      if (this.#end === undefined) this.#send({ type: 'result', cell: this.id, call, ...outcome });
    };
    this.#calls += 1;
    if (this.#calls > MAX_CALLS_PER_CELL) {
      answer({ ok: false, error: `a cell may make at most ${MAX_CALLS_PER_CELL} tool calls; tools.${name} was not run` });
      return;
    }
    const tool = this.#options.tools.find((candidate) => candidate.name === name);
    if (tool === undefined) {
      answer({ ok: false, error: `tools.${name} is not a tool` });
      return;
    }
    try {
      answer({ ok: true, json: await tool.call(json) });
    } catch (error) {
      answer({ ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }

  #finish(end: CellEnd, error: string | undefined): void {
    if (this.#end !== undefined) return;
    this.#end = end;
    this.#error = error;
    this.#markEnded();
  }
}
