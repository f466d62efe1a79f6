// The config.toml that points the real Codex binary at @skein/test-support's mock server (CODEX-FACTS
// §1), shared by the fixture recorder and the compatibility test.

/**
 * @param {string} url the mock server's base URL (`http://127.0.0.1:PORT/v1`)
 * @param {string} [extra] more top-level TOML lines for one scenario
 * @returns {string}
 */
export function codexMockConfig(url, extra = '') {
  return [
    'model_provider = "mock"',
    'model = "gpt-5.5"',
    'check_for_update_on_startup = false',
    ...(extra === '' ? [] : [extra]),
    '[analytics]',
    'enabled = false',
    '[feedback]',
    'enabled = false',
    '[model_providers.mock]',
    'name = "Mock"',
    `base_url = "${url}"`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'supports_websockets = false',
    '',
  ].join('\n');
}
