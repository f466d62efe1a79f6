// `thread/revert`: drops a turn and every later one from a thread's history, as Codex 0.171.0 answers
// it (the thread with no turns, and cursors to page the history that is left backwards), and — Skein's
// addition — puts back the files those turns changed where checkpoints were taken (`fileRestore` in
// the answer; the restore reaches subscribers as a turn with one file-change item per environment).
import { ThreadSessionError, type EnvironmentRestore } from '@skein/core';
import { AppServerErrorCode, ThreadRevertParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { WireObject } from '@skein/core';
import { withStoredMetadata } from '../threads/thread-metadata.js';
import { resumeExtras } from './resume-extras.js';
import { afterResponse } from './threads.js';

/** The `thread/revert` method. */
export const THREAD_REVERT_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/revert',
    defineMethod({
      params: ThreadRevertParams,
      async handle(params, context) {
        const hub = context.server.threads;
        if (!hub.isLoaded(params.threadId) && (await (await hub.store()).find(params.threadId)) === undefined) throw refused(`thread not found: ${params.threadId}`);
        // The restore runs on the thread's environments, so a thread that is not loaded is loaded for this client first.
        const thread = hub.isLoaded(params.threadId) ? hub.loaded(params.threadId) : (await hub.resume({ threadId: params.threadId, excludeTurns: true }, context.connection)).thread;
        // As Codex: a running turn is interrupted, and the revert waits for it (and any turn still closing) to end.
        thread.handle.interruptIfRunning();
        await thread.settled();
        const result = await thread.handle.revert(params.beforeTurnId, { restoreFiles: params.restoreFiles ?? true, force: params.force === true }).catch((error: unknown) => {
          throw error instanceof ThreadSessionError ? refused(error.message) : error;
        });
        const turns = await hub.recordedTurns(thread.id);
        const { turnsBackwardsCursor, itemsBackwardsCursor } = resumeExtras(thread.id, {}, turns);
        afterResponse(() => context.server.broadcast(thread.id, 'thread/reverted', { threadId: thread.id }));
        return {
          thread: await withStoredMetadata(await hub.store(), hub.threadOf(thread, [])),
          turnsBackwardsCursor,
          itemsBackwardsCursor,
          fileRestore: result.restores.length === 0 ? null : { turnId: result.restoreTurnId ?? null, environments: result.restores.map(restoreObject) },
        };
      },
    }),
  ],
]);

/** A -32600 worded as Codex words its revert refusals (`turn not found: <id>`, no prefix). */
function refused(message: string): AppServerRequestError {
  return new AppServerRequestError(AppServerErrorCode.InvalidRequest, message);
}

function restoreObject(restore: EnvironmentRestore): WireObject {
  return {
    environmentId: restore.environmentId,
    root: restore.root,
    restored: restore.restored.map((file) => ({ path: file.path, kind: file.kind })),
    conflicts: [...restore.conflicts],
    failed: [...restore.failed],
    error: restore.error ?? null,
  };
}
