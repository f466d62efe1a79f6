// Loads third-party extensions named in config (`[skein] extensions`) or on the command line
// (`--extension`). A spec is a package name, resolved as an `import` from the directory of the file
// that names it, or a path relative to that directory. Each failure becomes one problem naming the
// spec and its cause, and the rest still load; a strict host turns the first one into an error.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EXTENSION_API_VERSION, ExtensionRegistryBuilder, ExtensionRegistryError, type Extension, type ExtensionRegistry } from '@skein/extension-api';
import type { satisfies, validRange } from 'semver';
import { ExtensionShape } from './extension-shape.js';

/** Where an extension was named: the spec as written, the directory it is resolved from, and who named it. */
export interface ExtensionSource {
  readonly spec: string;
  readonly baseDir: string;
  /** The config file, or `--extension`, for messages. */
  readonly origin: string;
}

/** Why an extension was not loaded. */
export type ExtensionLoadFailure = 'NotFound' | 'ImportFailed' | 'InvalidShape' | 'DuplicateId' | 'IncompatibleApi';

/** One extension that could not be loaded; the message names the spec, who named it and the cause. */
export class ExtensionLoadError extends Error {
  override readonly name = 'ExtensionLoadError';
  constructor(
    readonly code: ExtensionLoadFailure,
    readonly source: ExtensionSource,
    cause: string,
  ) {
    super(`extension '${source.spec}' (from ${source.origin}): ${cause}`);
  }
}

/** The outcome of a load: the registry of what loaded, and a problem for each spec that did not. */
export interface LoadedExtensions {
  readonly registry: ExtensionRegistry;
  readonly loaded: readonly { readonly extension: Extension; readonly source: ExtensionSource; readonly url: string }[];
  readonly problems: readonly ExtensionLoadError[];
}

/** Options of `loadExtensions`. */
export interface LoadExtensionsOptions {
  /** Throw the first problem instead of skipping the extension (`--strict-config`). */
  readonly strict?: boolean;
  /** Extensions the host installs itself, first; a loaded one may not reuse their ids. */
  readonly builtIn?: readonly Extension[];
  /** Imports an extension's module by file URL (default: this module's own `import()`). A host whose
   * code runs where `import()` does not work lends its own: skein's bundle, run from V8's code cache. */
  readonly importModule?: ModuleImporter | undefined;
}

/** Imports the ES module at a file URL, as `import()` does. */
export type ModuleImporter = (url: string) => Promise<unknown>;

const importWithOwnLoader: ModuleImporter = (url) => import(url);

/**
 * Imports each source's module (once per resolved file, so a spec named by two config layers loads
 * once), checks it exports an `extension` made by `defineExtension` for a contract version this host
 * serves, and builds the registry.
 */
export async function loadExtensions(sources: readonly ExtensionSource[], options: LoadExtensionsOptions = {}): Promise<LoadedExtensions> {
  const builder = new ExtensionRegistryBuilder();
  for (const extension of options.builtIn ?? []) builder.add(extension);
  const loaded: { extension: Extension; source: ExtensionSource; url: string }[] = [];
  const problems: ExtensionLoadError[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    try {
      const url = await resolveSpec(source);
      if (seen.has(url)) continue;
      seen.add(url);
      const extension = checkExtension(source, await importModule(source, url, options.importModule ?? importWithOwnLoader), await loadSemver());
      try {
        builder.add(extension);
      } catch (error) {
        if (!(error instanceof ExtensionRegistryError)) throw error;
        // An id, a world-state section or a fragment marker another extension already has.
        throw new ExtensionLoadError(error.code === 'InvalidId' ? 'InvalidShape' : 'DuplicateId', source, error.message);
      }
      loaded.push({ extension, source, url });
    } catch (error) {
      if (!(error instanceof ExtensionLoadError)) throw error;
      if (options.strict === true) throw error;
      problems.push(error);
    }
  }
  return { registry: builder.build(), loaded, problems };
}

/** The sources `--extension <spec>` flags name: resolved from the working directory. */
export function extensionFlagSources(specs: readonly string[], cwd: string): ExtensionSource[] {
  return specs.map((spec) => ({ spec, baseDir: cwd, origin: '--extension' }));
}

const PATH_SPEC = /^(\.{1,2}([\\/]|$)|[\\/]|[A-Za-z]:[\\/])/;

/** The file URL a spec names: a path relative to its base directory, or a package resolved from there. */
async function resolveSpec(source: ExtensionSource): Promise<string> {
  if (PATH_SPEC.test(source.spec)) {
    const file = path.resolve(source.baseDir, source.spec);
    const found = await stat(file).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!found) throw new ExtensionLoadError('NotFound', source, `no file ${file}`);
    return pathToFileURL(file).href;
  }
  // Imported here: most hosts name no package, and the resolver is 57 KB to compile (issue #18).
  const { resolve: resolveImport } = await import('import-meta-resolve');
  try {
    // Resolved as Node resolves an `import` written in a file of that directory (exports, conditions).
    return resolveImport(source.spec, pathToFileURL(path.join(source.baseDir, 'config.toml')).href);
  } catch (error) {
    throw new ExtensionLoadError('NotFound', source, `cannot resolve package '${source.spec}' from ${source.baseDir}: ${firstLine(error)}; install it there, or name a file with ./`);
  }
}

async function importModule(source: ExtensionSource, url: string, importer: ModuleImporter): Promise<unknown> {
  try {
    return await importer(url);
  } catch (error) {
    throw new ExtensionLoadError('ImportFailed', source, `importing ${fileURLToPath(url)} threw: ${firstLine(error)}`);
  }
}

/** The two semver calls the loader makes. */
interface Semver {
  readonly satisfies: typeof satisfies;
  readonly validRange: typeof validRange;
}

let semverModule: Promise<Semver> | undefined;

/** semver, imported with the first extension a host loads rather than when it starts (issue #18). */
function loadSemver(): Promise<Semver> {
  // CommonJS: its exports are the import's `default`, in Node and in a bundle alike.
  semverModule ??= import('semver').then((loaded) => loaded.default);
  return semverModule;
}

/** The module's `extension` export, if it is one this host can serve. */
function checkExtension(source: ExtensionSource, module: unknown, semver: Semver): Extension {
  const exported = (module as { extension?: unknown }).extension;
  if (exported === undefined) {
    throw new ExtensionLoadError('InvalidShape', source, 'the module has no `extension` export; export one made with defineExtension from @skein/extension-api');
  }
  const parsed = ExtensionShape.safeParse(exported);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new ExtensionLoadError('InvalidShape', source, `\`extension\` is not an extension${where}: ${issue?.message ?? 'invalid'}`);
  }
  const range = parsed.data.apiRange;
  if (semver.validRange(range) === null) throw new ExtensionLoadError('InvalidShape', source, '`extension` is not an extension at apiRange: apiRange is not a semver range');
  if (!semver.satisfies(EXTENSION_API_VERSION, range, { includePrerelease: true })) {
    throw new ExtensionLoadError('IncompatibleApi', source, `'${parsed.data.id}' needs @skein/extension-api ${range}; this host has ${EXTENSION_API_VERSION}`);
  }
  return exported as Extension;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0] ?? message;
}
