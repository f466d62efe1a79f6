// The config.toml that points Codex or Skein at a mock Responses server: one `mock` provider, no
// retries (a test's scripted answers are exact), and gpt-5.5 unless the test says otherwise.

/** Options of {@link mockProviderConfigToml}. */
export interface MockProviderConfigOptions {
  readonly model?: string;
  /** `env_key`: the variable the API key is read from, when the test wants one sent. */
  readonly envKey?: string;
  /** More TOML appended at the end (own tables, say). */
  readonly extra?: string;
}

/** A config.toml for a server at `url` (the mock server's `url`). */
export function mockProviderConfigToml(url: string, options: MockProviderConfigOptions = {}): string {
  return [
    'model_provider = "mock"',
    `model = "${options.model ?? 'gpt-5.5'}"`,
    '',
    '[model_providers.mock]',
    'name = "Mock"',
    `base_url = "${url}"`,
    'wire_api = "responses"',
    ...(options.envKey === undefined ? [] : [`env_key = "${options.envKey}"`]),
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    options.extra ?? '',
  ].join('\n');
}
