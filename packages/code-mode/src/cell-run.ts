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
/** Output held for the next report, in characters and in items; what comes after is dropped and counted. */
const MAX_UNREPORTED_CHARS = 4 * 1024 * 1024;
/** Items are counted too: a loop of `text('')` costs no characters, yet each is an object held here. */
const MAX_UNREPORTED_ITEMS = 10_000;
/** How long a terminated cell may take to end before its host is killed. */
const TERMINATE_GRACE_MS = 5000;
/** How long a report waits for a cell to start beyond its yield time (the host may be starting). */
const START_GRACE_MS = 15_000;

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

  readonly #stuck: () => void;
  readonly #maxCalls: number;
  #unreportedChars = 0;
  #dropped = 0;
  /** The cell's calls, one after another: tools that must not overlap (apply_patch) never do. */
  #calling: Promise<void> = Promise.resolve();

  /** `host`: how to reach the host, what to do when it stopped answering, and the call cap. */
  constructor(options: CellStartOptions, host: { readonly send: (message: ParentMessage) => void; readonly stuck: () => void; readonly maxCalls: number }) {
    this.id = options.id;
    this.#options = options;
    this.#send = host.send;
    this.#stuck = host.stuck;
    this.#maxCalls = host.maxCalls;
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
    // The yield time is the cell's own: a host still starting does not spend it (within reason).
    if (this.#startedAt === undefined) await this.#until([this.#running, this.ended], yieldMs + START_GRACE_MS, signal);
    if (this.#end === undefined && !this.#yielded) {
      await this.#until([this.ended, new Promise<void>((resolve) => (this.#wake = resolve))], yieldMs, signal);
      this.#wake = undefined;
    }
    const dropped = this.#dropped;
    const items = dropped === 0 ? this.#unreported : [...this.#unreported, { type: 'input_text' as const, text: `…${dropped} more outputs were dropped: a cell holds at most ${MAX_UNREPORTED_CHARS} characters in ${MAX_UNREPORTED_ITEMS} outputs between answers` }];
    this.#unreported = [];
    this.#unreportedChars = 0;
    this.#dropped = 0;
    this.#yielded = false;
    return { status: this.#end ?? 'running', items, ...(this.#error === undefined ? {} : { error: this.#error }), wallTimeMs: performance.now() - this.#createdAt };
  }

  /** Ends the cell; its report says `terminated`. A host that does not end it in time is killed. */
  async terminate(): Promise<void> {
    if (this.#end !== undefined) return;
    this.#send({ type: 'terminate', cell: this.id });
    await this.#until([this.ended], TERMINATE_GRACE_MS);
    if (this.#end === undefined) this.#stuck();
  }

  /** Waits for the first of `events`, at most `ms` and until `signal` aborts. */
  async #until(events: readonly Promise<unknown>[], ms: number, signal?: AbortSignal): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      ...events,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        onAbort = resolve;
        if (signal?.aborted === true) resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
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
        this.#hold({ type: 'input_text', text: message.text }, message.text.length);
        return;
      case 'image':
        this.#hold({ type: 'input_image', image_url: message.url, ...(message.detail === undefined ? {} : { detail: message.detail }) }, message.url.length);
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
        this.#calling = this.#calling.then(() => this.#call(message.call, message.tool, message.json));
        return;
      case 'done':
        this.#finish(message.end, message.error);
        return;
    }
  }

  /** Keeps an output item for the next report, within the cap. */
  #hold(item: CellOutputItem, chars: number): void {
    if (this.#unreportedChars + chars > MAX_UNREPORTED_CHARS || this.#unreported.length >= MAX_UNREPORTED_ITEMS) {
      this.#dropped += 1;
      return;
    }
    this.#unreportedChars += chars;
    this.#unreported.push(item);
  }

  async #call(call: number, name: string, json: string): Promise<void> {
    if (this.#end !== undefined) return;
    const answer = (outcome: { ok: true; json: string } | { ok: false; error: string }) => {
      if (this.#end === undefined) this.#send({ type: 'result', cell: this.id, call, ...outcome });
    };
    this.#calls += 1;
    if (this.#calls > this.#maxCalls) {
      answer({ ok: false, error: `a cell may make at most ${this.#maxCalls} tool calls; tools.${name} was not run` });
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
