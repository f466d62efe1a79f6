// Turns a sandbox request (core policy, optional split filesystem policy, cwd, env) into canonical path
// rules — the one model every back end renders from — and answers "what may happen at this path?"
// with the most specific rule. Reads the filesystem (lstat, readlink, the `.git` pointer file).
import { lstatSync, readFileSync, readlinkSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { CoreSandboxPolicy, FileSystemSandboxEntry, FileSystemSandboxPolicy, NetworkSandboxPolicy } from '@skein/protocol/executor';
import { PROTECTED_DIRECTORY_NAMES, fileSystemPolicyFromSandboxPolicy, networkPolicyOf } from './policy-from-config.js';
import { SandboxUnavailableError } from './sandbox-error.js';

/** What a rule grants below its path. */
export type RuleAccess = 'read' | 'write' | 'deny';

/** What the host has at a rule's path. `symlink` only when the link itself must be protected. */
export type PathState = 'directory' | 'file' | 'other' | 'missing' | 'symlink';

/** One concrete rule: from `path` down, `access` applies unless a deeper rule says otherwise. */
export interface PathRule {
  /** Absolute and canonical up to the first missing component or protected symlink. */
  readonly path: string;
  readonly access: RuleAccess;
  /** A protected metadata path (`.git`, `.agents`, `.codex`, `.aws`, a gitdir target, sandbox state). */
  readonly protected: boolean;
  readonly state: PathState;
  /** For a missing path: its first component that does not exist (what a mask must cover). */
  readonly firstMissing?: string;
  /** A symlink on the way to `path` that the sandboxed command could replace (its parent is writable). */
  readonly writableSymlink?: string;
}

/** The filesystem side of a resolved policy. */
export type ResolvedFileSystem =
  | { readonly kind: 'unrestricted' }
  | {
      readonly kind: 'restricted';
      /** Access at `/` (or the drive root) where no rule applies. */
      readonly rootAccess: RuleAccess;
      /** Deduplicated, shallowest first, then by path. */
      readonly rules: readonly PathRule[];
    };

/** A request reduced to what back ends need. */
export interface ResolvedPolicy {
  readonly fileSystem: ResolvedFileSystem;
  readonly network: NetworkSandboxPolicy;
  /** The caller declared that an external sandbox confines the command: add nothing. */
  readonly external: boolean;
}

/** The request fields resolution reads. */
export interface ResolveInput {
  readonly policy: CoreSandboxPolicy;
  readonly fileSystemPolicy?: FileSystemSandboxPolicy | undefined;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Options of {@link resolveSandboxPolicy}. */
export interface ResolveOptions {
  /** Whose path syntax and system directories apply. */
  readonly platform: NodeJS.Platform;
  /** More paths to keep read-only wherever they fall inside a writable root (e.g. sandbox state). */
  readonly extraProtectedPaths?: readonly string[];
}

// The kernel's own limit on symlink hops during one lookup (MAXSYMLINKS).
const MAX_SYMLINK_HOPS = 40;

/** System directories `:minimal` makes readable, per platform. */
const PLATFORM_DEFAULT_READABLE: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/bin', '/sbin', '/usr', '/etc', '/lib', '/lib64'],
  darwin: ['/bin', '/sbin', '/usr', '/System', '/Library', '/private/etc', '/private/var/db/timezone'],
};

// Equal specificity: a hidden path stays hidden, protection beats a grant, a grant beats a read.
const PRECEDENCE = (rule: Pick<PathRule, 'access' | 'protected'>): number =>
  rule.access === 'deny' ? 3 : rule.protected ? 2 : rule.access === 'write' ? 1 : 0;

type PathApi = typeof path.posix;
const pathApi = (platform: NodeJS.Platform): PathApi => (platform === 'win32' ? path.win32 : path.posix);

/** Whether `child` is `parent` or below it (component-wise). */
export function isWithin(child: string, parent: string, api: PathApi = path.posix): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(api.sep) ? parent : parent + api.sep;
  return child.startsWith(prefix);
}

function depthOf(target: string, api: PathApi): number {
  return target.split(api.sep).filter((part) => part.length > 0).length;
}

/**
 * The access that applies at `target`: the deepest rule at or above it, else the root's.
 * Rules are already deduplicated, so there are no ties.
 */
export function accessAt(fileSystem: ResolvedFileSystem, target: string, platform: NodeJS.Platform = 'linux'): RuleAccess {
  if (fileSystem.kind === 'unrestricted') return 'write';
  const api = pathApi(platform);
  let best: PathRule | undefined;
  for (const rule of fileSystem.rules) {
    if (isWithin(target, rule.path, api) && (best === undefined || depthOf(rule.path, api) >= depthOf(best.path, api))) best = rule;
  }
  return best?.access ?? fileSystem.rootAccess;
}

/** Resolves `input` into concrete rules. Throws {@link SandboxUnavailableError} for unenforceable forms. */
export function resolveSandboxPolicy(input: ResolveInput, options: ResolveOptions): ResolvedPolicy {
  const api = pathApi(options.platform);
  if (!api.isAbsolute(input.cwd)) {
    throw new SandboxUnavailableError('InvalidRequest', `the sandbox cwd must be absolute, got '${input.cwd}'`, 'Pass an absolute working directory');
  }
  const network = networkPolicyOf(input.policy);
  const fsPolicy = input.fileSystemPolicy ?? fileSystemPolicyFromSandboxPolicy(input.policy, input.cwd);
  const external = input.policy.type === 'external-sandbox' || fsPolicy.kind === 'external-sandbox';
  if (external || fsPolicy.kind === 'unrestricted') return { fileSystem: { kind: 'unrestricted' }, network, external };

  const raw = concreteEntries(fsPolicy.entries, input, options.platform);
  if (raw.rootAccess === 'write' && raw.rules.every((rule) => rule.access === 'write')) {
    return { fileSystem: { kind: 'unrestricted' }, network, external };
  }
  return { fileSystem: { kind: 'restricted', rootAccess: raw.rootAccess, rules: canonicalRules(raw, options, api) }, network, external };
}

interface RawRule {
  readonly path: string;
  readonly access: RuleAccess;
  readonly protected: boolean;
}

interface RawRules {
  readonly rootAccess: RuleAccess;
  readonly rules: readonly RawRule[];
}

/** Entries with special paths replaced by absolute ones; unenforceable forms rejected. */
function concreteEntries(entries: readonly FileSystemSandboxEntry[], input: ResolveInput, platform: NodeJS.Platform): RawRules {
  const api = pathApi(platform);
  let rootAccess: RuleAccess | undefined;
  const rules: RawRule[] = [];
  const add = (target: string, access: RuleAccess): void => {
    rules.push({ path: api.resolve(target), access, protected: false });
  };
  for (const entry of entries) {
    const target = entry.path;
    switch (target.type) {
      case 'path':
        add(target.path, entry.access);
        break;
      case 'glob_pattern':
        throw new SandboxUnavailableError(
          'UnsupportedPolicy',
          `the filesystem policy has a glob entry ('${target.pattern}'), which Skein does not enforce yet`,
          'List the paths explicitly instead of a glob pattern',
        );
      case 'special': {
        const value = target.value;
        switch (value.kind) {
          case 'root':
            if (rootAccess === undefined || PRECEDENCE({ access: entry.access, protected: false }) > PRECEDENCE({ access: rootAccess, protected: false })) {
              rootAccess = entry.access;
            }
            break;
          case 'minimal':
            if (entry.access !== 'deny') for (const dir of PLATFORM_DEFAULT_READABLE[platform] ?? []) add(dir, 'read');
            break;
          case 'project_roots': {
            const resolved = api.resolve(input.cwd, value.subpath ?? '.');
            if (!isWithin(resolved, input.cwd, api)) {
              throw new SandboxUnavailableError('UnsupportedPolicy', `the project-root subpath '${value.subpath ?? ''}' leaves the working directory`, 'Use a subpath below the project root');
            }
            add(resolved, entry.access);
            break;
          }
          case 'tmpdir': {
            const tmpdir = input.env.TMPDIR;
            if (tmpdir !== undefined && tmpdir.length > 0 && api.isAbsolute(tmpdir)) add(tmpdir, entry.access);
            break;
          }
          case 'slash_tmp':
            if (platform !== 'win32') add('/tmp', entry.access);
            break;
          case 'unknown':
            // A newer release's token: ignoring a grant only narrows access, ignoring a denial would widen it.
            if (entry.access === 'deny') {
              throw new SandboxUnavailableError('UnsupportedPolicy', `the filesystem policy denies the unknown special path '${value.path}'`, 'Upgrade Skein or replace the token with an explicit path');
            }
            break;
        }
        break;
      }
    }
  }
  return { rootAccess: rootAccess ?? 'deny', rules };
}

function stateOf(stats: Stats): PathState {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFile()) return 'file';
  return 'other';
}

interface Walked {
  readonly path: string;
  readonly state: PathState;
  readonly firstMissing?: string;
  readonly writableSymlink?: string;
}

/**
 * Canonicalises `target` component by component. A symlink whose parent directory is writable is not
 * followed: the command could replace it, so callers must protect the link itself.
 */
function walk(target: string, api: PathApi, parentWritable: (dir: string) => boolean): Walked {
  const root = api.parse(target).root;
  let resolved = root;
  let pending = target.slice(root.length).split(api.sep).filter((part) => part.length > 0);
  let hops = 0;
  while (pending.length > 0) {
    const [part, ...rest] = pending as [string, ...string[]];
    if (part === '.') {
      pending = rest;
      continue;
    }
    if (part === '..') {
      resolved = api.dirname(resolved);
      pending = rest;
      continue;
    }
    const candidate = api.join(resolved, part);
    let stats: Stats;
    try {
      stats = lstatSync(candidate);
    } catch {
      return { path: api.join(candidate, ...rest), state: 'missing', firstMissing: candidate };
    }
    if (stats.isSymbolicLink()) {
      if (parentWritable(resolved)) return { path: api.join(candidate, ...rest), state: 'symlink', writableSymlink: candidate };
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) {
        throw new SandboxUnavailableError('InvalidRequest', `too many levels of symbolic links under '${target}'`, 'Fix the symlink loop or leave the path out of the policy');
      }
      const link = readlinkSync(candidate);
      const next = api.isAbsolute(link) ? link : api.join(resolved, link);
      const nextRoot = api.parse(next).root;
      resolved = nextRoot;
      pending = [...next.slice(nextRoot.length).split(api.sep).filter((p) => p.length > 0), ...rest];
      continue;
    }
    resolved = candidate;
    pending = rest;
  }
  let state: PathState;
  try {
    state = stateOf(statSync(resolved));
  } catch {
    state = 'missing';
  }
  return state === 'missing' ? { path: resolved, state, firstMissing: resolved } : { path: resolved, state };
}

/** `gitdir:` target of a `.git` pointer file, when it names an existing path. */
function gitdirTarget(pointerFile: string, api: PathApi): string | undefined {
  let text: string;
  try {
    text = readFileSync(pointerFile, 'utf8');
  } catch {
    return undefined;
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (match?.[1] === undefined) return undefined;
  const target = api.resolve(api.dirname(pointerFile), match[1]);
  try {
    statSync(target);
    return target;
  } catch {
    return undefined;
  }
}

function deepestAccess(rules: readonly RawRule[], rootAccess: RuleAccess, target: string, api: PathApi): RuleAccess {
  let best: RawRule | undefined;
  for (const rule of rules) {
    if (!isWithin(target, rule.path, api)) continue;
    if (best === undefined) {
      best = rule;
      continue;
    }
    const depth = depthOf(rule.path, api);
    const bestDepth = depthOf(best.path, api);
    if (depth > bestDepth || (depth === bestDepth && PRECEDENCE(rule) > PRECEDENCE(best))) best = rule;
  }
  return best?.access ?? rootAccess;
}

function canonicalRules(raw: RawRules, options: ResolveOptions, api: PathApi): PathRule[] {
  const never = (): boolean => false;
  // Grants first: a writable root reached through a symlink means its target.
  const writes: PathRule[] = raw.rules
    .filter((rule) => rule.access === 'write')
    .map((rule) => ({ ...walk(rule.path, api, never), access: 'write' as const, protected: false }));
  const others = raw.rules.filter((rule) => rule.access !== 'write');
  const provisional: RawRule[] = [...writes, ...others];

  const protectedPaths: string[] = [];
  for (const root of writes) {
    if (root.state !== 'directory' || deepestAccess(provisional, raw.rootAccess, root.path, api) !== 'write') continue;
    for (const name of PROTECTED_DIRECTORY_NAMES) protectedPaths.push(api.join(root.path, name));
    const pointer = api.join(root.path, '.git');
    try {
      if (lstatSync(pointer).isFile()) {
        const gitdir = gitdirTarget(pointer, api);
        if (gitdir !== undefined) protectedPaths.push(gitdir);
      }
    } catch {
      // No .git at all: the mask for the missing path covers it.
    }
  }
  protectedPaths.push(...(options.extraProtectedPaths ?? []));

  const parentWritable = (dir: string): boolean => deepestAccess(provisional, raw.rootAccess, dir, api) === 'write';
  const narrowed: PathRule[] = [
    ...others.map((rule) => ({ ...walk(rule.path, api, parentWritable), access: rule.access, protected: false })),
    ...protectedPaths.map((target) => ({ ...walk(api.resolve(target), api, parentWritable), access: 'read' as const, protected: true })),
  ];

  const byPath = new Map<string, PathRule>();
  for (const rule of [...writes, ...narrowed]) {
    const existing = byPath.get(rule.path);
    if (existing === undefined || PRECEDENCE(rule) > PRECEDENCE(existing)) byPath.set(rule.path, rule);
  }
  const guarded = [...byPath.values()].filter((rule) => rule.protected);
  // Protection is sticky: a grant below a protected path does not reopen it.
  const rules = [...byPath.values()].filter(
    (rule) => !(rule.access === 'write' && guarded.some((guard) => guard.path !== rule.path && isWithin(rule.path, guard.path, api))),
  );
  return rules.sort((a, b) => depthOf(a.path, api) - depthOf(b.path, api) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
