// `modelProvider/list`: the model providers a client may pick from (the built-in OpenAI one and
// each `[model_providers.<id>]` of config.toml), with the default new threads use.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** The method takes an empty object (Codex's `ModelProviderListParams` has no fields). */
export const ModelProviderListParams = lazySchema(() => z.object({}));
export type ModelProviderListParams = z.infer<typeof ModelProviderListParams>;

/** How a custom gateway authenticates: not at all, with an environment variable's key, or by other config. */
export const GatewayAuth = lazySchema(() => z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('none') }),
  z.object({ mode: z.literal('environmentVariable'), envKey: z.string() }),
  /** Authentication configured outside the gateway form (e.g. an OpenAI sign-in). */
  z.object({ mode: z.literal('externallyConfigured'), envKey: z.string().nullish() }),
]));
export type GatewayAuth = z.infer<typeof GatewayAuth>;

/** A provider's settings, by kind (Skein has no Bedrock or GCP providers). */
export const ProviderSettings = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('openai') }),
  z.object({ type: z.literal('customGateway'), auth: GatewayAuth }),
  z.object({ type: z.literal('bedrock'), profile: z.string().nullish(), region: z.string().nullish() }),
  z.object({ type: z.literal('gcp'), credentialFile: z.string().nullish(), location: z.string().nullish(), projectId: z.string().nullish() }),
]));
export type ProviderSettings = z.infer<typeof ProviderSettings>;

export const ModelProviderSummary = lazySchema(() => z.object({
  id: z.string(),
  name: z.string(),
  /** Whether the user's config.toml defines it, so a client could edit it there. */
  canEdit: z.boolean(),
  /** Null when config names no endpoint, or when it cannot be shown safely. */
  baseUrl: z.string().nullish(),
  settings: ProviderSettings,
}));
export type ModelProviderSummary = z.infer<typeof ModelProviderSummary>;

export const ModelProviderListResponse = lazySchema(() => z.object({
  data: z.array(ModelProviderSummary),
  defaultProviderId: z.string(),
  canChangeDefault: z.boolean(),
}));
export type ModelProviderListResponse = z.infer<typeof ModelProviderListResponse>;
