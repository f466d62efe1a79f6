// `modelProvider/list`: the providers a client may choose, as Codex 0.171.0 lists them: its built-in
// OpenAI provider and every `[model_providers.<id>]` the config defines, sorted by id, with the
// config's `model_provider` as the default. Skein's other built-ins (`ollama`, `lmstudio`) are not
// listed, as Codex lists only OpenAI of its own.
import { BUILT_IN_PROVIDER_IDS, type Config, type ModelProviderInfo } from '@skein/config';
import { ModelProviderListParams, type GatewayAuth, type ModelProviderListResponse, type ModelProviderSummary } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** Codex's own provider: not editable, its endpoint not shown. */
const OPENAI: ModelProviderSummary = { id: 'openai', name: 'OpenAI', canEdit: false, baseUrl: null, settings: { type: 'openai' } };

/** `model_providers.<id>` of one layer's table, if that layer defines it. */
function providerTable(table: Readonly<Record<string, unknown>>, id: string): Readonly<Record<string, unknown>> | undefined {
  const providers = table['model_providers'];
  if (typeof providers !== 'object' || providers === null) return undefined;
  const entry = (providers as Record<string, unknown>)[id];
  return typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
}

/**
 * The `base_url` the config wrote (the highest layer's), or null when none did (Skein then talks to
 * OpenAI's API) or when it carries credentials, which a client must not be shown.
 */
function displayedBaseUrl(config: Config, id: string): string | null {
  const written = config.layers.map((layer) => providerTable(layer.table, id)?.['base_url']).filter((value) => typeof value === 'string').at(-1);
  if (written === undefined) return null;
  try {
    const url = new URL(written);
    return url.username === '' && url.password === '' ? written : null;
  } catch {
    return null;
  }
}

/**
 * How a configured provider authenticates, in the protocol's `GatewayAuth` terms: an OpenAI sign-in
 * is configured outside the gateway form, an `env_key` is an environment variable, else none.
 */
function gatewayAuth(provider: ModelProviderInfo): GatewayAuth {
  if (provider.requiresOpenaiAuth) return { mode: 'externallyConfigured', envKey: provider.envKey ?? null };
  if (provider.envKey !== undefined) return { mode: 'environmentVariable', envKey: provider.envKey };
  return { mode: 'none' };
}

/** The list for `config`, sorted by id. */
export function modelProviderList(config: Config): ModelProviderListResponse {
  const userLayer = config.layers.find((layer) => layer.name.type === 'user');
  const configured = Object.values(config.modelProviders)
    .filter((provider) => !BUILT_IN_PROVIDER_IDS.includes(provider.id))
    .map(
      (provider): ModelProviderSummary => ({
        id: provider.id,
        name: provider.name,
        // Editable where a client would edit it: the user's config.toml.
        canEdit: userLayer !== undefined && providerTable(userLayer.table, provider.id) !== undefined,
        baseUrl: displayedBaseUrl(config, provider.id),
        settings: { type: 'customGateway', auth: gatewayAuth(provider) },
      }),
    );
  const data = [OPENAI, ...configured].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { data, defaultProviderId: config.modelProviderId, canChangeDefault: true };
}

/** The `modelProvider/list` method. */
export const MODEL_PROVIDER_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'modelProvider/list',
    defineMethod({
      params: ModelProviderListParams,
      handle(_params, { server }): ModelProviderListResponse {
        return modelProviderList(server.config.config);
      },
    }),
  ],
]);
