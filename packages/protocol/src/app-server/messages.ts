// The app-server v2 requests and notifications this version speaks, as method-tagged unions.
import * as z from 'zod';
import { RequestId } from '../jsonrpc.js';
import { InitializeParams } from './initialize.js';
import { ThreadItem } from './thread-item.js';
import { Thread, ThreadStartParams } from './thread.js';
import { Turn, TurnStartParams } from './turn.js';
import { lazySchema } from '../lazy-schema.js';

export const InitializeRequest = lazySchema(() => z.object({ id: RequestId, method: z.literal('initialize'), params: InitializeParams }));
export const ThreadStartRequest = lazySchema(() => z.object({ id: RequestId, method: z.literal('thread/start'), params: ThreadStartParams }));
export const TurnStartRequest = lazySchema(() => z.object({ id: RequestId, method: z.literal('turn/start'), params: TurnStartParams }));

/** A client→server request this version handles, keyed by `method`. */
export const ClientRequest = lazySchema(() => z.discriminatedUnion('method', [InitializeRequest, ThreadStartRequest, TurnStartRequest]));
export type ClientRequest = z.infer<typeof ClientRequest>;

export const ThreadStartedNotification = lazySchema(() => z.object({ thread: Thread }));
export type ThreadStartedNotification = z.infer<typeof ThreadStartedNotification>;

export const TurnStartedNotification = lazySchema(() => z.object({ threadId: z.string(), turn: Turn }));
export type TurnStartedNotification = z.infer<typeof TurnStartedNotification>;

export const TurnCompletedNotification = lazySchema(() => z.object({ threadId: z.string(), turn: Turn }));
export type TurnCompletedNotification = z.infer<typeof TurnCompletedNotification>;

export const ItemStartedNotification = lazySchema(() => z.object({
  threadId: z.string(),
  turnId: z.string(),
  item: ThreadItem,
  startedAtMs: z.number().int(),
}));
export type ItemStartedNotification = z.infer<typeof ItemStartedNotification>;

export const ItemCompletedNotification = lazySchema(() => z.object({
  threadId: z.string(),
  turnId: z.string(),
  item: ThreadItem,
  completedAtMs: z.number().int(),
  contentTokenCount: z.number().int().nonnegative().nullish(),
}));
export type ItemCompletedNotification = z.infer<typeof ItemCompletedNotification>;

export const AgentMessageDeltaNotification = lazySchema(() => z.object({
  threadId: z.string(),
  turnId: z.string(),
  itemId: z.string(),
  delta: z.string(),
}));
export type AgentMessageDeltaNotification = z.infer<typeof AgentMessageDeltaNotification>;

const notification = <M extends string, P extends z.ZodType>(method: M, params: P) =>
  z.object({ method: z.literal(method), params, emittedAtMs: z.number().int().optional() });

/** A server→client notification this version emits, keyed by `method`. */
export const ServerNotification = lazySchema(() => z.discriminatedUnion('method', [
  notification('thread/started', ThreadStartedNotification),
  notification('turn/started', TurnStartedNotification),
  notification('item/started', ItemStartedNotification),
  notification('item/completed', ItemCompletedNotification),
  notification('item/agentMessage/delta', AgentMessageDeltaNotification),
  notification('turn/completed', TurnCompletedNotification),
]));
export type ServerNotification = z.infer<typeof ServerNotification>;
export type ServerNotificationMethod = ServerNotification['method'];
