// @ts-check
// The build every library package shares: ESM for Node 20 with source maps and declarations.
// Kept in checked JavaScript so tsup can load it from each package's config without a build step.

/**
 * A package's tsup options. `entry` lists the programs and entry points to bundle; `dtsEntry` the
 * ones that get declarations (the public barrels; a bin needs none).
 * @param {{ entry?: string[], dtsEntry?: string | string[] }} [options]
 * @returns {import('tsup').Options}
 */
export function libraryConfig(options = {}) {
  const entry = options.entry ?? ['src/index.ts'];
  return {
    entry,
    format: ['esm'],
    clean: true,
    sourcemap: true,
    target: 'node20',
    // TS 6 deprecates `baseUrl`, which tsup's dts step sets internally.
    dts: { entry: options.dtsEntry ?? 'src/index.ts', compilerOptions: { ignoreDeprecations: '6.0' } },
  };
}
