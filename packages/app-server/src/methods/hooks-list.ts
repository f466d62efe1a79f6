// `hooks/list`: Skein runs no lifecycle hooks yet, so each directory (or the named loaded thread's
// working directory) gets an entry with no hooks, warnings or errors, in the shape Codex lists them.
import { HooksListParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `hooks/list` method. */
export const HOOKS_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'hooks/list',
    defineMethod({
      params: HooksListParams,
      handle(params, { server }) {
        const named = params.threadId ?? null;
        if (named !== null) {
          if (params.cwds !== undefined) throw AppServerRequestError.invalidRequest('hooks/list takes a threadId or cwds, not both');
          return { data: [emptyEntry(server.threads.loaded(named).config.cwd)] };
        }
        // Codex echoes each cwd as sent, and lists for its working directory when none is given.
        const cwds = params.cwds === undefined || params.cwds.length === 0 ? [server.config.config.cwd] : params.cwds;
        return { data: cwds.map(emptyEntry) };
      },
    }),
  ],
]);

function emptyEntry(cwd: string) {
  return { cwd, hooks: [], warnings: [], errors: [] };
}
