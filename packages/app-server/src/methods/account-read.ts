// `account/read`: Skein keeps no ChatGPT or API-key login of its own (a provider's key comes from its
// `env_key`), so it answers as Codex does on a machine where nobody signed in.
import { GetAccountParams, type GetAccountResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `account/read` method. */
export const ACCOUNT_READ_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'account/read',
    defineMethod({
      params: GetAccountParams,
      handle(_params, { server }): GetAccountResponse {
        // Codex's TUI reads `requiresOpenaiAuth` to decide whether to ask for a sign-in; it follows
        // the active provider, as Codex's does.
        return { account: null, userId: null, requiresOpenaiAuth: server.config.config.modelProvider.requiresOpenaiAuth, workspaceRouting: null };
      },
    }),
  ],
]);
