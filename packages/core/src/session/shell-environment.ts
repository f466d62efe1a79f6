// The environment model-run commands get, from `[shell_environment_policy]` as Codex reads it:
// start from all / core / none of the host's variables, drop the default secret patterns and the
// configured excludes, keep only `include_only` when given, then apply `set`.
import type { Config } from '@skein/config';

/** Variables `inherit = "core"` keeps. */
export const CORE_ENVIRONMENT_VARIABLES: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'USERNAME', 'TMPDIR', 'TEMP', 'TMP'];

/** Names dropped unless `ignore_default_excludes = true`: anything that looks like a credential. */
export const DEFAULT_EXCLUDED_PATTERNS: readonly string[] = ['*KEY*', '*SECRET*', '*TOKEN*'];

/** Case-insensitive glob with `*` and `?`, as Codex matches variable names. */
function matches(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${source}$`, 'i').test(name);
}

/** The command environment for `policy`, from the host environment `host`. */
export function shellEnvironment(
  policy: Config['shellEnvironmentPolicy'],
  host: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const inherit = policy.inherit ?? 'all';
  const entries = Object.entries(host).filter((entry): entry is [string, string] => entry[1] !== undefined);
  let kept = inherit === 'none' ? [] : inherit === 'core' ? entries.filter(([name]) => CORE_ENVIRONMENT_VARIABLES.includes(name)) : entries;
  if (policy.ignore_default_excludes !== true) kept = kept.filter(([name]) => !DEFAULT_EXCLUDED_PATTERNS.some((pattern) => matches(pattern, name)));
  const excludes = policy.exclude ?? [];
  kept = kept.filter(([name]) => !excludes.some((pattern) => matches(pattern, name)));
  const includeOnly = policy.include_only ?? [];
  if (includeOnly.length > 0) kept = kept.filter(([name]) => includeOnly.some((pattern) => matches(pattern, name)));
  return { ...Object.fromEntries(kept), ...policy.set };
}
