// The version of this contract. The build inlines it from package.json, so an extension bundled with
// its own copy of @skein/extension-api carries the version it was built against.
import packageJson from '../package.json' with { type: 'json' };

/** This package's version; hosts compare an extension's `apiRange` with theirs. */
export const EXTENSION_API_VERSION: string = packageJson.version;
