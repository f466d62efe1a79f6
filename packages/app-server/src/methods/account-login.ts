// `account/login/start`, `account/login/cancel` and `account/logout`: sign-in with an API key, kept in
// `$CODEX_HOME/auth.json` as Codex 0.171.0 keeps it and announced as it announces it (probed):
// `account/login/completed` and `account/updated {authMode: "apikey"}` before the answer, and
// `account/updated {authMode: null}` after a logout. Skein signs in with API keys only: the ChatGPT and
// Bedrock sign-ins are refused with the way to use a key, and no sign-in is ever pending to cancel.
import { CancelLoginAccountParams, LoginAccountParams, LogoutAccountParams } from '@skein/protocol';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { afterResponse } from './threads.js';

/** The account methods that change who the server is signed in as. */
export const ACCOUNT_LOGIN_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'account/login/start',
    defineMethod({
      params: LoginAccountParams,
      async handle(params, { server }) {
        if (params.type !== 'apiKey') refuse(`${params.type} sign-in is not available in this server: it signs in with an API key (account/login/start {type: "apiKey", apiKey})`);
        // Codex 0.171.0 saves an empty key too; Skein refuses it rather than save a sign-in that cannot work.
        if (params.apiKey.trim() === '') refuse('apiKey must not be empty');
        await server.savedApiKey.save(params.apiKey);
        server.broadcastToAll('account/login/completed', { loginId: null, success: true, error: null, onboardingEntrypoint: null });
        server.broadcastToAll('account/updated', { authMode: 'apikey', planType: null, reason: null });
        return { type: 'apiKey' };
      },
    }),
  ],
  [
    'account/login/cancel',
    defineMethod({
      params: CancelLoginAccountParams,
      handle(params) {
        // An API-key sign-in completes at once: there is never one in progress.
        refuse(`invalid login id: ${params.loginId}`);
      },
    }),
  ],
  [
    'account/logout',
    defineMethod({
      params: LogoutAccountParams,
      async handle(_params, { server }) {
        await server.savedApiKey.remove();
        afterResponse(() => server.broadcastToAll('account/updated', { authMode: null, planType: null, reason: null }));
        return {};
      },
    }),
  ],
]);
