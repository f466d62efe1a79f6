// Params of `thread/queue/*`: messages a client queues for a thread while it is busy, delivered one
// turn each once it is idle, and edited, reordered, deleted or started early meanwhile.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { UserInput } from '../user-input.js';

/** Extra key/value pairs a client attaches to a message for the Responses API; kept with it. */
const ClientMetadata = lazySchema(() => z.record(z.string(), z.string()).nullish());

/** `thread/queue/add`: queues `input` last. */
export const ThreadQueueAddParams = lazySchema(() => z.object({
  threadId: z.string(),
  clientUserMessageId: z.string(),
  input: z.array(UserInput),
  responsesapiClientMetadata: ClientMetadata,
}));
export type ThreadQueueAddParams = z.infer<typeof ThreadQueueAddParams>;

/** `thread/queue/list`: the queue, first to be delivered first, paged. */
export const ThreadQueueListParams = lazySchema(() => z.object({
  threadId: z.string(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
}));
export type ThreadQueueListParams = z.infer<typeof ThreadQueueListParams>;

/** `thread/queue/update`: replaces a queued message's input (and metadata), keeping its place. */
export const ThreadQueueUpdateParams = lazySchema(() => z.object({
  threadId: z.string(),
  queuedSubmissionId: z.string(),
  input: z.array(UserInput),
  responsesapiClientMetadata: ClientMetadata,
}));
export type ThreadQueueUpdateParams = z.infer<typeof ThreadQueueUpdateParams>;

/** `thread/queue/delete`: removes a queued message. */
export const ThreadQueueDeleteParams = lazySchema(() => z.object({ threadId: z.string(), queuedSubmissionId: z.string() }));
export type ThreadQueueDeleteParams = z.infer<typeof ThreadQueueDeleteParams>;

/** `thread/queue/reorder`: the queue's new order, naming every queued message once. */
export const ThreadQueueReorderParams = lazySchema(() => z.object({ threadId: z.string(), queuedSubmissionIds: z.array(z.string()) }));
export type ThreadQueueReorderParams = z.infer<typeof ThreadQueueReorderParams>;

/** `thread/queue/start`: delivers a queued message (the first, when none is named) as a turn now. */
export const ThreadQueueStartParams = lazySchema(() => z.object({ threadId: z.string(), queuedSubmissionId: z.string().nullish() }));
export type ThreadQueueStartParams = z.infer<typeof ThreadQueueStartParams>;
