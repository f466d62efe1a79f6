// `account/rateLimits/read`: rate limits belong to a ChatGPT sign-in, which Skein never has (a
// provider's key comes from its `env_key`), so it refuses as Codex does when nobody signed in.
import { AppServerErrorCode, GetAccountRateLimitsParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `account/rateLimits/read` method. */
export const ACCOUNT_RATE_LIMITS_READ_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'account/rateLimits/read',
    defineMethod({
      params: GetAccountRateLimitsParams,
      handle(): never {
        throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, 'reading rate limits takes a signed-in ChatGPT account, and this server has no account sign-in');
      },
    }),
  ],
]);
