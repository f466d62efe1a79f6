// `thread/inject_items`: raw Responses API items appended to a loaded thread's model-visible
// history, as Codex 0.171.0 does: `{}`; the items come after the initial context on a thread that
// has not run a turn, and with the next request while a turn runs. They are recorded in the rollout
// (resume keeps them) but belong to no turn, so `thread/read` does not show them. Items of a type
// this version does not model are accepted and dropped, as Codex drops them.
import { isKnownResponseItem, KnownResponseItem, ThreadInjectItemsParams, withoutResponseItemMetadata, type ResponseItem } from '@skein/protocol';
import type * as z from 'zod';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** One schema issue in serde's manner: `missing field \`content\``, else where and what. */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'it does not match its type';
  const field = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && issue.input === undefined && field !== '') return `missing field \`${field}\``;
  return field === '' ? issue.message : `\`${field}\`: ${issue.message}`;
}

/** An injected item of a known type, or undefined for one to drop; refuses one that is no item. */
function parseItem(raw: unknown, index: number): ResponseItem | undefined {
  const where = `items[${index}] is not a valid response item`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) refuse(`${where}: expected an object, got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`);
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string') refuse(`${where}: missing field \`type\``);
  if (!isKnownResponseItem({ type })) return undefined;
  const parsed = KnownResponseItem.safeParse(raw, { reportInput: true });
  if (!parsed.success) refuse(`${where}: ${describeIssue(parsed.error.issues[0])}`);
  // Skein's own item metadata (turn tags, provenance) is the runtime's to set, never a client's.
  return withoutResponseItemMetadata(parsed.data);
}

/** The `thread/inject_items` method. */
export const THREAD_INJECT_ITEMS_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/inject_items',
    defineMethod({
      params: ThreadInjectItemsParams,
      async handle(params, context) {
        const hub = context.server.threads;
        if (!hub.isLoaded(params.threadId)) refuse(`thread not found: ${params.threadId}`);
        // Checked after the lookup, as Codex does.
        if (params.items.length === 0) refuse('items must not be empty');
        const items = params.items.flatMap((raw, index) => parseItem(raw, index) ?? []);
        if (items.length > 0) await hub.loaded(params.threadId).handle.injectItems(items);
        return {};
      },
    }),
  ],
]);
