// `account/read`: who the server is signed in as. Skein signs in with API keys only: a saved key
// (auth.json) is an `apiKey` account for a provider that takes OpenAI's sign-in.
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
        const requiresOpenaiAuth = server.config.config.modelProvider.requiresOpenaiAuth;
        const account = requiresOpenaiAuth && server.savedApiKey.get() !== undefined ? { type: 'apiKey' as const } : null;
        return { account, userId: null, requiresOpenaiAuth, workspaceRouting: null };
      },
    }),
  ],
]);
