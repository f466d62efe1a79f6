// What `marketplace/add` accepts as a source, told apart as Codex tells them: a local folder
// (absolute, `./`, `../`, `~/`, `.`), GitHub's `owner/repo[@ref]`, or a git URL (`https://…[#ref]`,
// `ssh://…`, `git@host:path`). `file://` URLs are refused, as Codex refuses them, and so are the
// unencrypted `git://` and `http://`.
import os from 'node:os';
import path from 'node:path';
import { PluginError } from '../plugin-error.js';

export type MarketplaceSource =
  | { readonly kind: 'local'; readonly path: string }
  | { readonly kind: 'git'; readonly url: string; readonly ref: string | undefined };

const GITHUB_SHORTHAND = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?(?:@([^\s@]+))?$/;
const SCP_LIKE = /^[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+:[^\s]+$/;

function isLocalPath(source: string): boolean {
  return source === '.' || source === '..' || source === '~' || /^(?:\/|\.\.?[\\/]|~[\\/])/.test(source) || /^[A-Za-z]:[\\/]/.test(source);
}

/** `source` told apart; a relative folder is resolved against `cwd`. */
export function parseMarketplaceSource(source: string, cwd: string): MarketplaceSource {
  const trimmed = source.trim();
  if (trimmed === '') throw new PluginError('InvalidRequest', 'marketplace source must not be empty');
  if (isLocalPath(trimmed)) {
    const expanded = trimmed === '~' || trimmed.startsWith('~/') || trimmed.startsWith('~\\') ? path.join(os.homedir(), trimmed.slice(1)) : trimmed;
    return { kind: 'local', path: path.resolve(cwd, expanded) };
  }
  // `git://` and `http://` are unencrypted: code installed from them could be swapped on the way.
  if (/^http:\/\//i.test(trimmed)) throw new PluginError('InvalidRequest', `marketplace source \`${trimmed}\` is plain http://: use https:// or ssh://, so the plugins' code cannot be changed on the way`);
  if (/^(?:https|ssh):\/\//.test(trimmed)) {
    const hash = trimmed.indexOf('#');
    return hash === -1 ? { kind: 'git', url: trimmed, ref: undefined } : { kind: 'git', url: trimmed.slice(0, hash), ref: trimmed.slice(hash + 1) || undefined };
  }
  if (SCP_LIKE.test(trimmed)) return { kind: 'git', url: trimmed, ref: undefined };
  const github = GITHUB_SHORTHAND.exec(trimmed);
  if (github !== null) return { kind: 'git', url: `https://github.com/${github[1]}/${github[2]}.git`, ref: github[3] };
  throw new PluginError('InvalidRequest', 'invalid marketplace source format; expected owner/repo, a git URL, or a local marketplace path');
}
