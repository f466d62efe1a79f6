// @ts-check
// Splitting a bare specifier into package name and subpath, and matching subpaths to exports keys.

/**
 * `@skein/core/x/y` → { name: '@skein/core', subpath: './x/y' }; `@skein/core` → subpath '.'.
 * @param {string} specifier
 * @returns {{ name: string, subpath: string } | undefined}
 */
export function splitSkeinSpecifier(specifier) {
  const match = /^(@skein\/[^/]+)(\/.*)?$/.exec(specifier);
  if (match === null || match[1] === undefined) return undefined;
  return { name: match[1], subpath: match[2] === undefined ? '.' : `.${match[2]}` };
}

/**
 * Whether `subpath` is opened by one of `exportKeys`, including single-`*` patterns as Node reads them.
 * @param {string[]} exportKeys
 * @param {string} subpath
 */
export function isExported(exportKeys, subpath) {
  return exportKeys.some((key) => {
    const star = key.indexOf('*');
    if (star === -1) return key === subpath;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    return subpath.length >= key.length - 1 && subpath.startsWith(prefix) && subpath.endsWith(suffix);
  });
}
