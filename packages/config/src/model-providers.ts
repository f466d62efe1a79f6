// Model providers: the built-in ones and user-defined `[model_providers.<id>]`, resolved with defaults.
import type { ModelProviderToml } from './config-toml.js';

/** A provider with every setting resolved. */
export interface ModelProviderInfo {
  readonly id: string;
  readonly name: string;
  /** The API base; requests go to `${baseUrl}/responses`. */
  readonly baseUrl: string;
  readonly envKey: string | undefined;
  readonly envKeyInstructions: string | undefined;
  readonly wireApi: 'responses';
  readonly queryParams: Readonly<Record<string, string>>;
  readonly httpHeaders: Readonly<Record<string, string>>;
  readonly envHttpHeaders: Readonly<Record<string, string>>;
  readonly requestMaxRetries: number;
  readonly streamMaxRetries: number;
  readonly streamIdleTimeoutMs: number;
  readonly requiresOpenaiAuth: boolean;
  readonly supportsWebsockets: boolean;
  /**
   * Whether the endpoint can run the Responses API's hosted tools (`web_search`). Not the built-in
   * local providers (Ollama, LM Studio serve a model, not OpenAI's search); a custom provider is
   * taken to be OpenAI's API or a proxy to it. (Codex 0.171.0 offers `web_search` to every provider.)
   */
  readonly runsHostedTools: boolean;
}

/** Defaults Codex uses for a provider that does not set them. */
export const PROVIDER_DEFAULTS = {
  requestMaxRetries: 4,
  streamMaxRetries: 5,
  streamIdleTimeoutMs: 300_000,
} as const;

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * The id of the built-in OpenAI provider. It takes OpenAI's sign-in (auth.json, `CODEX_API_KEY`) as
 * Codex's does; its `env_key` (`OPENAI_API_KEY`, which Codex 0.171.0 does not read) is Skein's
 * fallback when there is no sign-in.
 */
export const OPENAI_PROVIDER_ID = 'openai';

/**
 * The providers that exist without configuration (same ids as Codex's built-ins). `ossBaseUrl`
 * (`CODEX_OSS_BASE_URL`, as Codex reads it) moves the local ones off their default ports.
 */
export function builtInProviders(openaiBaseUrl: string | undefined, ossBaseUrl?: string): Record<string, ModelProviderToml> {
  return {
    [OPENAI_PROVIDER_ID]: {
      name: 'OpenAI',
      base_url: openaiBaseUrl ?? OPENAI_BASE_URL,
      env_key: 'OPENAI_API_KEY',
      wire_api: 'responses',
      requires_openai_auth: true,
      supports_websockets: true,
    },
    ollama: { name: 'Ollama', base_url: ossBaseUrl ?? 'http://localhost:11434/v1', wire_api: 'responses' },
    lmstudio: { name: 'LM Studio', base_url: ossBaseUrl ?? 'http://localhost:1234/v1', wire_api: 'responses' },
  };
}

/** The built-in providers that serve a local model. */
const LOCAL_PROVIDER_IDS: ReadonlySet<string> = new Set(['ollama', 'lmstudio']);

/** The ids of the providers that exist without configuration (a config.toml cannot redefine them). */
export const BUILT_IN_PROVIDER_IDS: readonly string[] = Object.freeze(Object.keys(builtInProviders(undefined)));

/** Fills a provider's unset fields. A provider without `base_url` talks to OpenAI's API. */
export function resolveProvider(id: string, toml: ModelProviderToml): ModelProviderInfo {
  return Object.freeze({
    id,
    name: toml.name ?? id,
    baseUrl: (toml.base_url ?? OPENAI_BASE_URL).replace(/\/+$/, ''),
    envKey: toml.env_key,
    envKeyInstructions: toml.env_key_instructions,
    wireApi: 'responses',
    queryParams: Object.freeze({ ...toml.query_params }),
    httpHeaders: Object.freeze({ ...toml.http_headers }),
    envHttpHeaders: Object.freeze({ ...toml.env_http_headers }),
    requestMaxRetries: toml.request_max_retries ?? PROVIDER_DEFAULTS.requestMaxRetries,
    streamMaxRetries: toml.stream_max_retries ?? PROVIDER_DEFAULTS.streamMaxRetries,
    streamIdleTimeoutMs: toml.stream_idle_timeout_ms ?? PROVIDER_DEFAULTS.streamIdleTimeoutMs,
    requiresOpenaiAuth: toml.requires_openai_auth ?? false,
    supportsWebsockets: toml.supports_websockets ?? false,
    runsHostedTools: !LOCAL_PROVIDER_IDS.has(id),
  });
}
