// Types of codex-binary.mjs, for the TypeScript tests that import it.

/** The Codex binary of this platform, or why there is none. */
export function resolveCodexBinary(): { readonly binary: string; readonly missing?: undefined } | { readonly binary?: undefined; readonly missing: string };
