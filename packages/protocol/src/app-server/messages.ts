// The app-server v2 requests and notifications this version speaks, as method-tagged unions.
import * as z from 'zod';
import { RequestId } from '../jsonrpc.js';
import { InitializeParams } from './initialize.js';
import { ThreadItem } from './thread-item.js';
import { Thread, ThreadStartParams } from './thread.js';
import { Turn, TurnStartParams } from './turn.js';

export const InitializeRequest = z.object({ id: RequestId, method: z.literal('initialize'), params: InitializeParams });
export const ThreadStartRequest = z.object({ id: RequestId, method: z.literal('thread/start'), params: ThreadStartParams });
export const TurnStartRequest = z.object({ id: RequestId, method: z.literal('turn/start'), params: TurnStartParams });

/** A client→server request this version handles, keyed by `method`. */
export const ClientRequest = z.discriminatedUnion('method', [InitializeRequest, ThreadStartRequest, TurnStartRequest]);
export type ClientRequest = z.infer<typeof ClientRequest>;

export const ThreadStartedNotification = z.object({ thread: Thread });
export type ThreadStartedNotification = z.infer<typeof ThreadStartedNotification>;

export const TurnStartedNotification = z.object({ threadId: z.string(), turn: Turn });
export type TurnStartedNotification = z.infer<typeof TurnStartedNotification>;

export const TurnCompletedNotification = z.object({ threadId: z.string(), turn: Turn });
export type TurnCompletedNotification = z.infer<typeof TurnCompletedNotification>;

export const ItemStartedNotification = z.object({
  threadId: z.string(),
  turnId: z.string(),
  item: ThreadItem,
  startedAtMs: z.number().int(),
});
export type ItemStartedNotification = z.infer<typeof ItemStartedNotification>;

export const ItemCompletedNotification = z.object({
  threadId: z.string(),
  turnId: z.string(),
  item: ThreadItem,
  completedAtMs: z.number().int(),
  contentTokenCount: z.number().int().nonnegative().nullish(),
});
export type ItemCompletedNotification = z.infer<typeof ItemCompletedNotification>;

export const AgentMessageDeltaNotification = z.object({
  threadId: z.string(),
  turnId: z.string(),
  itemId: z.string(),
  delta: z.string(),
});
export type AgentMessageDeltaNotification = z.infer<typeof AgentMessageDeltaNotification>;

const notification = <M extends string, P extends z.ZodType>(method: M, params: P) =>
  z.object({ method: z.literal(method), params, emittedAtMs: z.number().int().optional() });

/** A server→client notification this version emits, keyed by `method`. */
export const ServerNotification = z.discriminatedUnion('method', [
  notification('thread/started', ThreadStartedNotification),
  notification('turn/started', TurnStartedNotification),
  notification('item/started', ItemStartedNotification),
  notification('item/completed', ItemCompletedNotification),
  notification('item/agentMessage/delta', AgentMessageDeltaNotification),
  notification('turn/completed', TurnCompletedNotification),
]);
export type ServerNotification = z.infer<typeof ServerNotification>;
export type ServerNotificationMethod = ServerNotification['method'];
