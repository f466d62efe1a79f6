// Turns a stream script into the exact bytes served for one request: ids resolved, events numbered,
// output indexes and the response object's `model` / `output` filled in as the real API has them.
import type { DeferredId } from '../deferred-id.js';
import { StreamCut } from '../mock-event.js';
import { resolveDeferredIds } from '../mock-id-allocator.js';
import type { ScriptStep } from '../scripted-response.js';
import { TOOL_CALL_TYPES } from '../tool-call-invariants.js';
import { isPlainObject } from './plain-object.js';

/** A script ready to be written. */
export interface RenderedSse {
  /** `event: …\ndata: …\n\n` frames, in order. */
  readonly frames: readonly string[];
  /** The data object of each frame. */
  readonly events: readonly Record<string, unknown>[];
  /** The cut that ends the stream early, if the script has one. */
  readonly cut: StreamCut | undefined;
  /** True when a `response.completed` is among the served events. */
  readonly completed: boolean;
  /** `call_id`s of the tool call items the stream finished (`output_item.done`). */
  readonly emittedCallIds: readonly string[];
}

/** What rendering needs from the request and the server. */
export interface RenderContext {
  readonly resolveId: (id: DeferredId) => string;
  /** The request's `model`, echoed in the response object like the real API. */
  readonly model: string;
}

const RESPONSE_EVENTS: readonly string[] = ['response.created', 'response.in_progress', 'response.completed', 'response.failed', 'response.incomplete'];
const TERMINAL_EVENTS: readonly string[] = ['response.completed', 'response.failed', 'response.incomplete'];

/** Renders `steps` for one request; pure apart from the ids `resolveId` hands out. */
export function renderSse(steps: readonly ScriptStep[], context: RenderContext): RenderedSse {
  const frames: string[] = [];
  const events: Record<string, unknown>[] = [];
  const outputIndexes = new OutputIndexes();
  const doneItems = new Map<number, Record<string, unknown>>();
  let cut: StreamCut | undefined;

  for (const step of steps) {
    if (step instanceof StreamCut) {
      cut = step;
      break;
    }
    const event: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(step)) event[key] = resolveDeferredIds(value, context.resolveId);
    const item = isPlainObject(event.item) ? event.item : undefined;

    if (event.output_index === undefined) {
      if (item !== undefined) event.output_index = outputIndexes.forItem(item, event.type === 'response.output_item.added');
      else if (typeof event.item_id === 'string') {
        const index = outputIndexes.forItemId(event.item_id);
        if (index !== undefined) event.output_index = index;
      }
    }
    if (item !== undefined && event.type === 'response.output_item.done' && typeof event.output_index === 'number') {
      doneItems.set(event.output_index, item);
    }
    if (typeof event.type === 'string' && RESPONSE_EVENTS.includes(event.type) && isPlainObject(event.response)) {
      const response: Record<string, unknown> = { ...event.response };
      response.model ??= context.model;
      if (TERMINAL_EVENTS.includes(event.type)) response.output ??= sortedItems(doneItems);
      else response.output ??= [];
      event.response = response;
    }
    event.sequence_number = events.length;
    events.push(event);
    frames.push(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  return {
    frames,
    events,
    cut,
    completed: events.some((event) => event.type === 'response.completed'),
    emittedCallIds: sortedItems(doneItems).flatMap((item) =>
      typeof item.type === 'string' && TOOL_CALL_TYPES.includes(item.type) && typeof item.call_id === 'string' && item.call_id !== ''
        ? [item.call_id]
        : [],
    ),
  };
}

function sortedItems(items: ReadonlyMap<number, Record<string, unknown>>): Record<string, unknown>[] {
  return [...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
}

/** Numbers output items in the order they start, as the API's `output_index` does. */
class OutputIndexes {
  readonly #byId = new Map<string, number>();
  #last = -1;

  /** The index of an item event's item; an item without an id continues the last one unless it is being added. */
  forItem(item: Record<string, unknown>, isAdded: boolean): number {
    const id = typeof item.id === 'string' ? item.id : undefined;
    const known = id === undefined ? undefined : this.#byId.get(id);
    if (known !== undefined) return known;
    const index = id === undefined && !isAdded && this.#last >= 0 ? this.#last : this.#last + 1;
    if (id !== undefined) this.#byId.set(id, index);
    this.#last = Math.max(this.#last, index);
    return index;
  }

  /** The index of the item a delta event names, if that item has started. */
  forItemId(id: string): number | undefined {
    return this.#byId.get(id);
  }
}
