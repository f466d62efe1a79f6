// Skein's own version, inlined from package.json by the build, and how `--version` states it beside
// the Codex version whose formats Skein speaks.
import { CODEX_VERSION } from '@skein/protocol/version';
import packageJson from '../package.json' with { type: 'json' };

/** This release of Skein. */
export const SKEIN_VERSION: string = packageJson.version;

/** What `skein --version` prints. */
export const VERSION_LINE = `skein ${SKEIN_VERSION} (compatible with codex-cli ${CODEX_VERSION})`;
