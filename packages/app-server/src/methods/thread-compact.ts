// `thread/compact/start`: compacts a loaded thread's history now. Answers `{}` at once; the
// compaction runs as a turn of its own and the client follows it through the usual notifications
// (status active, `turn/started`, a `contextCompaction` item, token usage, status idle, `turn/completed`).
import { ThreadIdParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The compaction methods. */
export const THREAD_COMPACT_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'thread/compact/start',
    defineMethod({
      params: ThreadIdParams,
      handle(params, context) {
        const thread = context.server.threads.loaded(params.threadId);
        if (thread.activeTurnId !== undefined) throw AppServerRequestError.invalidRequest(`turn ${thread.activeTurnId} is still running; wait for it or interrupt it before compacting`);
        // Codex answers before it notifies; the session reports a failed compaction as a failed turn.
        setImmediate(() => {
          thread.handle.compact().catch(() => undefined);
        });
        return {};
      },
    }),
  ],
]);
