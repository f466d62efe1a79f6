// `thread/readState/update`: marks a stored thread read or unread for every client of this home.
// The edit applies only against the revision the caller saw, so a turn that ended meanwhile is not
// marked read unseen; a stale revision answers -32600 with the current state, as Codex does.
import { AppServerErrorCode, ThreadReadStateUpdateParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `thread/readState/update` method. */
export const THREAD_READ_STATE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/readState/update',
    defineMethod({
      params: ThreadReadStateUpdateParams,
      async handle(params, context) {
        const hub = context.server.threads;
        const store = await hub.store();
        const loaded = hub.isLoaded(params.threadId) ? hub.loaded(params.threadId) : undefined;
        // Only durable threads have a read state: an ephemeral one, or an id no file has, is refused.
        if (loaded?.facts.ephemeral === true || (loaded === undefined && (await store.find(params.threadId)) === undefined)) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `thread not found: ${params.threadId}`);
        }
        const outcome = await store.readReceipts.update(params.threadId, params.expectedRevision, params.operation.type);
        if (!outcome.applied) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, 'the read state has changed since that revision', { reason: 'readStateConflict', readState: outcome.current });
        }
        setImmediate(() => context.server.broadcast(params.threadId, 'thread/readState/changed', { threadId: params.threadId, readState: outcome.state }));
        return { readState: outcome.state };
      },
    }),
  ],
]);
