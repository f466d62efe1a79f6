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
 * `account/login/start`: an API key, or one of Codex's other sign-ins (ChatGPT in a browser or with a
 * device code, ChatGPT tokens a host holds, Amazon Bedrock), which a server may not offer. Each has
 * the fields Codex requires, so a missing one is answered as Codex answers it.
 */
export const LoginAccountParams = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('apiKey'), apiKey: z.string() }),
  z.looseObject({ type: z.literal('chatgpt') }),
  z.looseObject({ type: z.literal('chatgptDeviceCode') }),
  z.looseObject({ type: z.literal('chatgptAuthTokens'), accessToken: z.string(), chatgptAccountId: z.string(), chatgptPlanType: z.string().nullish() }),
  z.looseObject({ type: z.literal('amazonBedrock'), apiKey: z.string(), region: z.string() }),
  z.looseObject({
    type: z.literal('amazonBedrockAccessKeys'),
    accessKeyId: z.string(),
    secretAccessKey: z.string(),
    sessionToken: z.string().nullish(),
    region: z.string(),
  }),
], { error: (issue) => (issue.code === 'invalid_union' ? unknownLoginType(issue.input) : undefined) }));
export type LoginAccountParams = z.infer<typeof LoginAccountParams>;

const LOGIN_TYPES = ['apiKey', 'chatgpt', 'chatgptDeviceCode', 'chatgptAuthTokens', 'amazonBedrock', 'amazonBedrockAccessKeys'] as const;

/** A sign-in type Codex does not know, in serde's words as Codex answers it. */
function unknownLoginType(params: unknown): string {
  const type = typeof params === 'object' && params !== null ? (params as Record<string, unknown>).type : undefined;
  if (type === undefined) return 'missing field `type`';
  return `unknown variant \`${typeof type === 'string' ? type : JSON.stringify(type)}\`, expected one of ${LOGIN_TYPES.map((name) => `\`${name}\``).join(', ')}`;
}

/** `account/login/cancel`: stops a sign-in in progress. */
export const CancelLoginAccountParams = lazySchema(() => z.object({ loginId: z.string() }));
export type CancelLoginAccountParams = z.infer<typeof CancelLoginAccountParams>;

/** `account/logout` takes nothing. */
export const LogoutAccountParams = lazySchema(() => z.object({}).nullish());
export type LogoutAccountParams = z.infer<typeof LogoutAccountParams>;
