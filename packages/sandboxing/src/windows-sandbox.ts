// Windows: the restricted-token request a sandbox runner needs, and the direct-spawn transform that
// wraps a command as `skein --run-as-windows-sandbox …` for callers that spawn argv themselves. Pure
// data: the runner that creates the token and applies the ACLs is not part of this package.
import type { CoreSandboxPolicy } from '@skein/protocol/executor';
import { isWithin, type ResolvedPolicy } from './resolve-policy.js';
import path from 'node:path';

/** The first argument that turns `skein` into the Windows sandbox runner. */
export const WINDOWS_SANDBOX_ARG1 = '--run-as-windows-sandbox';

/** A SID the restricted token lists as restricting. */
export type RestrictingSid =
  /** The sandbox's capability, derived from `name` (what writable roots grant write to). */
  | { readonly kind: 'capability'; readonly name: string }
  /** A well-known SID such as Everyone (`S-1-1-0`), so reads keep working. */
  | { readonly kind: 'well-known'; readonly sid: string }
  /** The runner's logon session, so the console and pipes it owns stay usable. */
  | { readonly kind: 'logon-session' };

/** An access-control change the runner applies before starting the command (and undoes after). */
export interface AclChange {
  readonly path: string;
  readonly ace: 'allow-write' | 'deny-write' | 'deny-read';
  readonly sid: 'capability';
}

/** Everything a Windows runner needs to confine one command. */
export interface WindowsSandboxRequest {
  readonly version: 1;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly token: {
    /** `CreateRestrictedToken` flags. */
    readonly flags: readonly ('DISABLE_MAX_PRIVILEGE' | 'LUA_TOKEN' | 'WRITE_RESTRICTED')[];
    readonly restrictingSids: readonly RestrictingSid[];
    readonly integrityLevel: 'low' | 'medium';
  };
  readonly acl: readonly AclChange[];
  readonly network: { readonly outbound: 'blocked' | 'allowed' };
}

/** The capability name of Skein's sandbox token. */
export const WINDOWS_SANDBOX_CAPABILITY = 'skein-sandbox';

/** The request for running under `policy` (restricted filesystem) in `cwd` with `env`. */
export function windowsSandboxRequest(policy: ResolvedPolicy, cwd: string, env: Readonly<Record<string, string>>): WindowsSandboxRequest {
  const acl: AclChange[] = [];
  const rules = policy.fileSystem.kind === 'restricted' ? policy.fileSystem.rules : [];
  for (const rule of rules) {
    if (rule.access === 'write') acl.push({ path: rule.path, ace: 'allow-write', sid: 'capability' });
  }
  for (const rule of rules) {
    const insideWritable = rules.some((other) => other.access === 'write' && other !== rule && isWithin(rule.path, other.path, path.win32));
    if (rule.access === 'deny') acl.push({ path: rule.path, ace: 'deny-read', sid: 'capability' });
    if (rule.access !== 'write' && insideWritable) acl.push({ path: rule.path, ace: 'deny-write', sid: 'capability' });
  }
  return {
    version: 1,
    cwd,
    env,
    token: {
      flags: ['DISABLE_MAX_PRIVILEGE', 'LUA_TOKEN', 'WRITE_RESTRICTED'],
      restrictingSids: [{ kind: 'capability', name: WINDOWS_SANDBOX_CAPABILITY }, { kind: 'well-known', sid: 'S-1-1-0' }, { kind: 'logon-session' }],
      integrityLevel: 'low',
    },
    acl,
    network: { outbound: policy.network === 'enabled' ? 'allowed' : 'blocked' },
  };
}

/** The result of {@link windowsDirectSpawnTransform}. */
export interface WindowsDirectSpawn {
  /** Self-contained: `skein --run-as-windows-sandbox --request-json <json> -- <command…>`. */
  readonly argv: readonly string[];
  /**
   * How the caller must spawn that argv: the runner confines the command itself, so the outer spawn
   * is marked unsandboxed (an external sandbox) and must not be wrapped again.
   */
  readonly outer: { readonly policy: CoreSandboxPolicy; readonly cwd: string; readonly sandboxed: false };
}

/** Wraps `command` for a caller that spawns argv directly. */
export function windowsDirectSpawnTransform(request: WindowsSandboxRequest, command: readonly string[], skeinExecutable: string): WindowsDirectSpawn {
  return {
    argv: [skeinExecutable, WINDOWS_SANDBOX_ARG1, '--request-json', JSON.stringify(request), '--', ...command],
    outer: {
      policy: { type: 'external-sandbox', network_access: request.network.outbound === 'allowed' ? 'enabled' : 'restricted' },
      cwd: request.cwd,
      sandboxed: false,
    },
  };
}
