// `fs/watch` and `fs/unwatch`: connection-scoped watches that send `fs/changed` (see fs-watches.ts).
import { FsUnwatchParams, FsWatchParams, type FsWatchResponse } from '@skein/protocol';
import { ConnectionWatches } from '../fs-watches.js';
import { defineMethod, type AppServerMethod, type ClientConnection } from '../method.js';

const watchesByConnection = new WeakMap<ClientConnection, ConnectionWatches>();

function watchesOf(connection: ClientConnection): ConnectionWatches {
  let watches = watchesByConnection.get(connection);
  if (watches === undefined) {
    watches = new ConnectionWatches(connection);
    watchesByConnection.set(connection, watches);
  }
  return watches;
}

/** The `fs/watch` methods. */
export const FS_WATCH_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'fs/watch',
    defineMethod({
      params: FsWatchParams,
      handle(params, { connection }): FsWatchResponse {
        return { path: watchesOf(connection).add(params.watchId, params.path) };
      },
    }),
  ],
  [
    'fs/unwatch',
    defineMethod({
      params: FsUnwatchParams,
      handle(params, { connection }) {
        watchesByConnection.get(connection)?.remove(params.watchId);
        return {};
      },
    }),
  ],
]);
