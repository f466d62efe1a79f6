// The Codex release whose wire formats Skein speaks. Clients gate features on the version they read
// from `initialize.userAgent` or a rollout's `cli_version`, so those carry this one, not Skein's own.
/** The Codex version Skein is compatible with. */
export const CODEX_VERSION = '0.171.0';
