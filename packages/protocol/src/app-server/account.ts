// `account/read`: who the server is signed in as (a ChatGPT account, an API key, a cloud provider's
// credentials) and whether the active model provider needs an OpenAI sign-in at all.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

export const GetAccountParams = lazySchema(() => z.object({
  /** Refresh a ChatGPT login's token before answering. */
  refreshToken: z.boolean().optional(),
}));
export type GetAccountParams = z.infer<typeof GetAccountParams>;

/** `account/rateLimits/read`: the signed-in ChatGPT account's usage limits. */
export const GetAccountRateLimitsParams = lazySchema(() => z
  .object({
    excludeResetCreditDetails: z.boolean().optional(),
    supportsLunaReserve: z.boolean().optional(),
  })
  .optional());
export type GetAccountRateLimitsParams = z.infer<typeof GetAccountRateLimitsParams>;

/** The signed-in account, by how it signed in. */
export const Account = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('apiKey') }),
  z.object({ type: z.literal('chatgpt'), email: z.string().nullable(), planType: z.string(), workspaceName: z.string().nullish() }),
  z.object({ type: z.literal('amazonBedrock'), usesCodexManagedCredentials: z.boolean().optional() }),
  z.object({ type: z.literal('gcp') }),
]));
export type Account = z.infer<typeof Account>;

export const GetAccountResponse = lazySchema(() => z.object({
  /** `null` when nobody signed in. */
  account: Account.nullable(),
  userId: z.string().nullable(),
  /** Whether the active model provider takes an OpenAI sign-in (its `requires_openai_auth`). */
  requiresOpenaiAuth: z.boolean(),
  workspaceRouting: z.unknown().nullable(),
}));
export type GetAccountResponse = z.infer<typeof GetAccountResponse>;

/**
 * `account/login/start`: an API key, or one of Codex's other sign-ins (ChatGPT, Bedrock), which a
 * server may not offer; their own fields are kept as sent.
 */
export const LoginAccountParams = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('apiKey'), apiKey: z.string() }),
  z.looseObject({ type: z.literal('chatgpt') }),
  z.looseObject({ type: z.literal('chatgptDeviceCode') }),
  z.looseObject({ type: z.literal('chatgptAuthTokens') }),
  z.looseObject({ type: z.literal('amazonBedrock') }),
  z.looseObject({ type: z.literal('amazonBedrockAccessKeys') }),
]));
export type LoginAccountParams = z.infer<typeof LoginAccountParams>;

/** `account/login/cancel`: stops a sign-in in progress. */
export const CancelLoginAccountParams = lazySchema(() => z.object({ loginId: z.string() }));
export type CancelLoginAccountParams = z.infer<typeof CancelLoginAccountParams>;

/** `account/logout` takes nothing. */
export const LogoutAccountParams = lazySchema(() => z.object({}).nullish());
export type LogoutAccountParams = z.infer<typeof LogoutAccountParams>;
