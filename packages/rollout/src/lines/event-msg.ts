// The `event_msg` line: a client-facing event the persistence policy keeps. The events replay needs
// (turn lifecycle, rollback, user messages) have schemas; every other event is kept whole.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/** A turn started (Codex's `TurnStarted`, serialized as `task_started`). */
export const TaskStartedEvent = lazySchema(() => z.looseObject({
  type: z.literal('task_started'),
  turn_id: z.string(),
  model_context_window: z.number().nullish(),
}));
export type TaskStartedEvent = z.infer<typeof TaskStartedEvent>;

/** A turn completed (`task_complete`); the turn is durable once this line is. */
export const TaskCompleteEvent = lazySchema(() => z.looseObject({
  type: z.literal('task_complete'),
  turn_id: z.string(),
  last_agent_message: z.string().nullish(),
}));
export type TaskCompleteEvent = z.infer<typeof TaskCompleteEvent>;

/** A turn was interrupted or replaced before completing. */
export const TurnAbortedEvent = lazySchema(() => z.looseObject({
  type: z.literal('turn_aborted'),
  turn_id: z.string().nullish(),
  reason: z.string(),
}));
export type TurnAbortedEvent = z.infer<typeof TurnAbortedEvent>;

/** The newest `num_turns` user turns were removed from the thread. */
export const ThreadRolledBackEvent = lazySchema(() => z.looseObject({
  type: z.literal('thread_rolled_back'),
  num_turns: z.number().int().nonnegative(),
}));
export type ThreadRolledBackEvent = z.infer<typeof ThreadRolledBackEvent>;

/** The user's message as the client showed it (older files' turn marker and thread title source). */
export const UserMessageEvent = lazySchema(() => z.looseObject({
  type: z.literal('user_message'),
  message: z.string(),
}));
export type UserMessageEvent = z.infer<typeof UserMessageEvent>;

/** The assistant's message as the client showed it (older files). */
export const AgentMessageEvent = lazySchema(() => z.looseObject({
  type: z.literal('agent_message'),
  message: z.string(),
}));
export type AgentMessageEvent = z.infer<typeof AgentMessageEvent>;

/** A finished thread item (`UserMessage`, `AgentMessage`, `CommandExecution`, `FileChange`, …). */
export const ItemCompletedEvent = lazySchema(() => z.looseObject({
  type: z.literal('item_completed'),
  turn_id: z.string().nullish(),
  item: z.looseObject({ type: z.string() }),
}));
export type ItemCompletedEvent = z.infer<typeof ItemCompletedEvent>;

/** The thread was given a name. */
export const ThreadNameUpdatedEvent = lazySchema(() => z.looseObject({
  type: z.literal('thread_name_updated'),
  thread_name: z.string().nullish(),
}));
export type ThreadNameUpdatedEvent = z.infer<typeof ThreadNameUpdatedEvent>;

/** The thread's goal changed (Codex's `thread_goal_updated`); `goal: null` when it was cleared. */
export const ThreadGoalUpdatedEvent = lazySchema(() => z.looseObject({
  type: z.literal('thread_goal_updated'),
  goal: z.looseObject({}).nullable(),
}));
export type ThreadGoalUpdatedEvent = z.infer<typeof ThreadGoalUpdatedEvent>;

/** A command finished; the extended persistence mode keeps a bounded copy of its output. */
export const ExecCommandEndEvent = lazySchema(() => z.looseObject({
  type: z.literal('exec_command_end'),
  call_id: z.string().nullish(),
  aggregated_output: z.string().nullish(),
  stdout: z.string().nullish(),
  stderr: z.string().nullish(),
  formatted_output: z.string().nullish(),
}));
export type ExecCommandEndEvent = z.infer<typeof ExecCommandEndEvent>;

/** The event types that have their own schema here. */
const KNOWN_EVENT_SCHEMAS = {
  task_started: TaskStartedEvent,
  task_complete: TaskCompleteEvent,
  turn_aborted: TurnAbortedEvent,
  thread_rolled_back: ThreadRolledBackEvent,
  user_message: UserMessageEvent,
  agent_message: AgentMessageEvent,
  item_completed: ItemCompletedEvent,
  thread_name_updated: ThreadNameUpdatedEvent,
  thread_goal_updated: ThreadGoalUpdatedEvent,
  exec_command_end: ExecCommandEndEvent,
} as const;

/** An event of a type this version models. */
export const KnownEventMsg = lazySchema(() => z.discriminatedUnion('type', [
  TaskStartedEvent,
  TaskCompleteEvent,
  TurnAbortedEvent,
  ThreadRolledBackEvent,
  UserMessageEvent,
  AgentMessageEvent,
  ItemCompletedEvent,
  ThreadNameUpdatedEvent,
  ThreadGoalUpdatedEvent,
  ExecCommandEndEvent,
]));
export type KnownEventMsg = z.infer<typeof KnownEventMsg>;

/** Any other event, kept whole. */
export const OtherEventMsg = lazySchema(() => z.looseObject({
  type: z.string().refine((type) => !Object.hasOwn(KNOWN_EVENT_SCHEMAS, type), {
    message: 'this event type has its own schema and did not match it',
  }),
}));
export type OtherEventMsg = z.infer<typeof OtherEventMsg>;

/** An `event_msg` payload: a known event, or any other event kept as it came. */
export const EventMsg = lazySchema(() => z.union([KnownEventMsg, OtherEventMsg]));
export type EventMsg = z.infer<typeof EventMsg>;

/** Narrows an event to the known variants, after which `switch (event.type)` is exhaustive. */
export function isKnownEventMsg(event: EventMsg): event is KnownEventMsg {
  return Object.hasOwn(KNOWN_EVENT_SCHEMAS, event.type);
}

/** The schema for an event type: its own when known, otherwise the catch-all. Used to parse fast by type. */
export function eventMsgSchemaFor(type: unknown): z.ZodType<EventMsg> {
  return typeof type === 'string' && Object.hasOwn(KNOWN_EVENT_SCHEMAS, type)
    ? KNOWN_EVENT_SCHEMAS[type as keyof typeof KNOWN_EVENT_SCHEMAS]
    : OtherEventMsg;
}
