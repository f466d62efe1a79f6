// `account/login/start`, `account/login/cancel` and `account/logout`: sign-in with an API key, kept in
// `$CODEX_HOME/auth.json` as Codex 0.171.0 keeps it and announced as it announces it (probed): the
// answer, then `account/login/completed` and `account/updated {authMode: "apikey"}`; a logout answers
// `{}`, then `account/updated {authMode: null}`, signed in or not. Skein signs in with API keys only:
// the ChatGPT and Bedrock sign-ins are refused with the way to use a key, so no sign-in is ever
// pending and a cancel finds nothing.
import { CancelLoginAccountParams, LoginAccountParams, LogoutAccountParams } from '@skein/protocol';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { afterResponse } from './threads.js';

/** What Codex's `account/login/cancel` answers for a well-formed id (a UUID, as it parses it). */
interface CancelLoginAccountResponse {
  readonly status: 'canceled' | 'notFound';
}

// The forms Rust's `uuid` crate parses: hyphenated, simple, braced and URN.
const HYPHENATED_UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const LOGIN_ID = new RegExp(`^(?:${HYPHENATED_UUID}|[0-9a-f]{32}|\\{${HYPHENATED_UUID}\\}|urn:uuid:${HYPHENATED_UUID})$`, 'i');

/** The account methods that change who the server is signed in as. */
export const ACCOUNT_LOGIN_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'account/login/start',
    defineMethod({
      params: LoginAccountParams,
      async handle(params, { server }) {
        if (params.type !== 'apiKey') {
          refuse(`${params.type} sign-in is not available: Skein signs in with an API key only (account/login/start {type: "apiKey", apiKey}, or \`skein login --with-api-key\`)`);
        }
        // Codex 0.171.0 saves an empty key and reports it signed in; Skein refuses it and writes nothing.
        if (params.apiKey.trim() === '') refuse('apiKey must not be empty');
        await server.savedApiKey.save(params.apiKey);
        afterResponse(() => {
          server.broadcastToAll('account/login/completed', { loginId: null, success: true, error: null, onboardingEntrypoint: null });
          server.broadcastToAll('account/updated', { authMode: 'apikey', planType: null, reason: null });
        });
        return { type: 'apiKey' };
      },
    }),
  ],
  [
    'account/login/cancel',
    defineMethod({
      params: CancelLoginAccountParams,
      handle(params): CancelLoginAccountResponse {
        if (!LOGIN_ID.test(params.loginId)) refuse(`invalid login id: ${params.loginId}`);
        // An API-key sign-in completes at once: there is never one in progress to stop.
        return { status: 'notFound' };
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
