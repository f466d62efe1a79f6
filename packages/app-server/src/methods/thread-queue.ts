// `thread/queue/add|list|update|delete|reorder|start`: messages a client queues while a thread is
// busy, as Codex 0.171.0 keeps them (probed): each is delivered as a turn of its own once the
// thread is idle (at once when it already is), every change tells the thread's subscribers
// `thread/queue/changed`, and the queue is kept in the index database, so it survives a restart.
import {
  AppServerErrorCode,
  randomUuidV7,
  ThreadQueueAddParams,
  ThreadQueueDeleteParams,
  ThreadQueueListParams,
  ThreadQueueReorderParams,
  ThreadQueueStartParams,
  ThreadQueueUpdateParams,
} from '@skein/protocol';
import { QueuedSubmissionError, type QueuedSubmission, type QueuedSubmissionStore } from '@skein/rollout';
import { AppServerRequestError, refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';
import { paginate } from '../pagination.js';
import { startQueuedTurn } from '../threads/queued-turns.js';

/** The queue of a thread this server knows (loaded, or stored in this home); Codex's error otherwise. */
async function queueOf(context: MethodContext, threadId: string): Promise<QueuedSubmissionStore> {
  const hub = context.server.threads;
  const store = await hub.store();
  if (!hub.isLoaded(threadId) && (await store.find(threadId)) === undefined) {
    throw new AppServerRequestError(AppServerErrorCode.InternalError, `failed to read thread: invalid thread-store request: no rollout found for thread id ${threadId}`);
  }
  return store.queuedSubmissions;
}

const changed = (context: MethodContext) => (threadId: string) => context.server.broadcast(threadId, 'thread/queue/changed', { threadId });

/** A queue refusal (not queued, no permutation) as the client's -32600, in Codex's words. */
function refused(error: unknown): never {
  if (error instanceof QueuedSubmissionError || error instanceof RangeError) refuse(error.message);
  throw error;
}

/** A queued message on the wire (`QueuedSubmission`). */
function wire(submission: QueuedSubmission): Record<string, unknown> {
  return { id: submission.id, input: submission.input, clientUserMessageId: submission.clientUserMessageId, responsesapiClientMetadata: submission.responsesapiClientMetadata };
}

/** The queue methods. */
export const THREAD_QUEUE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'thread/queue/add',
    defineMethod({
      params: ThreadQueueAddParams,
      async handle(params, context) {
        const queue = await queueOf(context, params.threadId);
        const submission: QueuedSubmission = {
          id: randomUuidV7(),
          input: params.input,
          clientUserMessageId: params.clientUserMessageId,
          responsesapiClientMetadata: params.responsesapiClientMetadata ?? null,
        };
        try {
          await queue.add(params.threadId, submission);
        } catch (error) {
          refused(error);
        }
        const hub = context.server.threads;
        const thread = hub.isLoaded(params.threadId) ? hub.loaded(params.threadId) : undefined;
        if (thread !== undefined && thread.activeTurnId === undefined) {
          // An idle thread takes the message at once: the queue changes twice before the answer.
          changed(context)(params.threadId);
          await startQueuedTurn(thread, queue, changed(context));
        } else {
          setImmediate(() => changed(context)(params.threadId));
        }
        return { queuedSubmission: wire(submission) };
      },
    }),
  ],
  [
    'thread/queue/list',
    defineMethod({
      params: ThreadQueueListParams,
      async handle(params, context) {
        const queue = await queueOf(context, params.threadId);
        return paginate((await queue.list(params.threadId)).map(wire), params);
      },
    }),
  ],
  [
    'thread/queue/update',
    defineMethod({
      params: ThreadQueueUpdateParams,
      async handle(params, context) {
        const queue = await queueOf(context, params.threadId);
        let updated: QueuedSubmission;
        try {
          updated = await queue.update(params.threadId, params.queuedSubmissionId, { input: params.input, responsesapiClientMetadata: params.responsesapiClientMetadata ?? null });
        } catch (error) {
          refused(error);
        }
        changed(context)(params.threadId);
        return { queuedSubmission: wire(updated) };
      },
    }),
  ],
  [
    'thread/queue/delete',
    defineMethod({
      params: ThreadQueueDeleteParams,
      async handle(params, context) {
        const queue = await queueOf(context, params.threadId);
        const deleted = await queue.remove(params.threadId, params.queuedSubmissionId);
        if (deleted) setImmediate(() => changed(context)(params.threadId));
        return { deleted };
      },
    }),
  ],
  [
    'thread/queue/reorder',
    defineMethod({
      params: ThreadQueueReorderParams,
      async handle(params, context) {
        const queue = await queueOf(context, params.threadId);
        try {
          await queue.reorder(params.threadId, params.queuedSubmissionIds);
        } catch (error) {
          refused(error);
        }
        setImmediate(() => changed(context)(params.threadId));
        return {};
      },
    }),
  ],
  [
    'thread/queue/start',
    defineMethod({
      params: ThreadQueueStartParams,
      async handle(params, context) {
        const queue = await queueOf(context, params.threadId);
        const hub = context.server.threads;
        // A stored thread no client has loaded runs nothing until one resumes it.
        if (!hub.isLoaded(params.threadId)) refuse(`thread not loaded: ${params.threadId}`);
        return { turn: await startQueuedTurn(hub.loaded(params.threadId), queue, changed(context), params.queuedSubmissionId ?? undefined) };
      },
    }),
  ],
]);
