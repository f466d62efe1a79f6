// Builds a started process's environment from `process/start`'s `envPolicy` (Codex's
// shell_environment_policy, applied to the executor's own environment) and its explicit `env`.
import type { ExecEnvPolicy } from '../protocol/messages.js';

const CORE_VARIABLES = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'USERNAME', 'TMPDIR', 'TEMP', 'TMP'];
// Names that usually hold credentials; dropped unless the policy says `ignoreDefaultExcludes`.
const DEFAULT_EXCLUDES = ['*KEY*', '*SECRET*', '*TOKEN*'];

function wildcard(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

function matchesAny(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => wildcard(pattern).test(name));
}

/**
 * The child's environment. Without a policy it is exactly `env` (nothing inherited, as Codex does);
 * with one, the policy's result from `hostEnv` with `env` laid over it.
 */
export function childEnvironment(
  policy: ExecEnvPolicy | null | undefined,
  env: Readonly<Record<string, string>>,
  hostEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  if (policy == null) return { ...env };
  const result = new Map<string, string>();
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value === undefined) continue;
    if (policy.inherit === 'all' || (policy.inherit === 'core' && CORE_VARIABLES.includes(name))) result.set(name, value);
  }
  const excludes = [...(policy.ignoreDefaultExcludes ? [] : DEFAULT_EXCLUDES), ...policy.exclude];
  for (const name of [...result.keys()]) if (matchesAny(name, excludes)) result.delete(name);
  for (const [name, value] of Object.entries(policy.set)) result.set(name, value);
  if (policy.includeOnly.length > 0) {
    for (const name of [...result.keys()]) if (!matchesAny(name, policy.includeOnly)) result.delete(name);
  }
  return { ...Object.fromEntries(result), ...env };
}
