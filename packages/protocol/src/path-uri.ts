// PathUri: the wire form of a file-system path that may live on another machine with another OS.
// Owns parsing/printing `file:` URIs, native-path conversion and root-bounded lexical path algebra.

import * as z from 'zod';
import { fail, PathUriError } from './path-uri-error.js';
import { checkHost, decodeEscapes, encode, LONE_SURROGATE, parseAuthority } from './path-uri-text.js';
import { lazySchema } from './lazy-schema.js';

export { PathUriError, type PathUriErrorCode } from './path-uri-error.js';

/** Which native path syntax to read or write: POSIX (`/a/b`) or Windows (`c:\a`, `\\server\share\a`). */
export type PathConvention = 'posix' | 'windows';

/** What a path hangs from: `/`, a drive (`c:/`) or a UNC share (`//server/share`). */
type Anchor =
  | { readonly kind: 'posix' }
  | { readonly kind: 'drive'; readonly letter: string }
  | { readonly kind: 'unc'; readonly host: string; readonly share: string };

/** A normalised path: its anchor and the decoded segments below it. */
interface Resolved {
  readonly anchor: Anchor;
  readonly below: readonly string[];
}

const POSIX: Anchor = { kind: 'posix' };
const DRIVE_SEGMENT = /^[A-Za-z]:$/;
// Any segment starting `x:` directly under `/` is read as a drive by VS Code and Windows peers.
const DRIVE_PREFIX = /^[A-Za-z]:/;
const DRIVE_ABSOLUTE = /^[A-Za-z]:[\\/]/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * A normalised absolute `file:` path: no `.`/`..`/empty segments, lower-case drive letter and host.
 * Immutable; compare with `equals`, serialise with `toString`/`toJSON`, read from the wire with
 * {@link PathUriString}.
 *
 * @example
 * const root = PathUri.fromNativePath('C:\\Users\\ada', 'windows');
 * root.join('src/main.ts').toString(); // 'file:///c:/Users/ada/src/main.ts'
 * root.join('../../..'); // throws PathUriError with code 'EscapesRoot'
 */
// Recently parsed URIs; cleared when full rather than evicted one by one (cheap, and bounded).
const PARSE_CACHE_ENTRIES = 1024;
// Long texts are not kept: the cache bounds its entries, and this bounds their size.
const PARSE_CACHE_MAX_CHARS = 4096;
const parsed = new Map<string, PathUri>();

export class PathUri {
  private constructor(
    private readonly anchor: Anchor,
    /** Decoded segments below the root (the share is part of the root, not a segment). */
    private readonly below: readonly string[],
  ) {}

  /**
   * Parses a `file:` URI: `file:///abs/path`, `file:///c:/x` (or VS Code's `file:///c%3A/x`),
   * `file://server/share/x` (UNC) and the RFC 8089 minimal form `file:/abs/path`. Segments are
   * percent-decoded; dot segments are resolved and empty ones dropped. A non-empty authority is
   * always a UNC host, `localhost` included, as in VS Code.
   *
   * @throws PathUriError for anything that is not an unambiguous absolute file path.
   */
  static parse(uri: string): PathUri {
    // A PathUri is immutable, so the same text may share one: a client asks about the same few paths
    // again and again, and parsing is the largest part of reading a request's params.
    const known = parsed.get(uri);
    if (known !== undefined) return known;
    const result = PathUri.parseUncached(uri);
    if (uri.length > PARSE_CACHE_MAX_CHARS) return result;
    if (parsed.size >= PARSE_CACHE_ENTRIES) parsed.clear();
    parsed.set(uri, result);
    return result;
  }

  private static parseUncached(uri: string): PathUri {
    if (uri.includes('\0')) fail('NulNotAllowed', 'file URI contains a NUL character', uri);
    const scheme = SCHEME.exec(uri);
    if (scheme?.[1]?.toLowerCase() !== 'file') {
      fail('NotFileScheme', 'expected a file: URI (use PathUri.fromNativePath for native paths)', uri);
    }
    let rest = uri.slice(scheme[0].length);
    const extra = rest.search(/[?#]/);
    if (extra >= 0) {
      if (rest[extra] === '?') fail('QueryNotAllowed', 'file URIs may not carry a query (?)', uri);
      fail('FragmentNotAllowed', 'file URIs may not carry a fragment (#); encode # as %23', uri);
    }
    let host = '';
    if (rest.startsWith('//')) {
      const end = rest.indexOf('/', 2);
      const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
      rest = end < 0 ? '' : rest.slice(end);
      host = authority === '' ? '' : parseAuthority(authority, uri);
      if (authority === '' && rest.startsWith('//')) {
        // RFC 8089's file:////server/share spelling would otherwise collapse into a POSIX path.
        fail('InvalidHost', 'empty host followed by // is ambiguous; write UNC URIs as file://server/share', uri);
      }
    }
    if (!rest.startsWith('/')) {
      if (host !== '') fail('MissingShare', 'UNC file URI needs a share: file://server/share', uri);
      fail('NotAbsolute', 'file URI path must be absolute (file:///...)', uri);
    }
    const parts = rest
      .split('/')
      .filter((raw) => raw !== '')
      .map((raw) => decodeEscapes(raw, uri));
    if (host !== '') return PathUri.of(fromUncParts(host, parts, uri));
    const [first, ...others] = parts;
    if (first !== undefined && DRIVE_SEGMENT.test(first)) {
      return PathUri.of(resolve({ kind: 'drive', letter: first.charAt(0).toLowerCase() }, [], others, uri));
    }
    return PathUri.of(resolve(POSIX, [], parts, uri));
  }

  /**
   * Reads an absolute native path. POSIX: `/a/b` (repeated slashes collapse, as on Linux and
   * macOS). Windows: `C:\a`, `C:/a`, `\\server\share\a` or `//server/share/a`. Dot segments are
   * resolved lexically; a `..` above the root throws 'EscapesRoot' rather than being clamped.
   *
   * @throws PathUriError 'NotAbsolute' for relative, drive-relative (`C:x`) and rooted (`\x`) paths.
   */
  static fromNativePath(path: string, convention: PathConvention): PathUri {
    if (path.includes('\0')) fail('NulNotAllowed', 'native path contains a NUL character', path);
    switch (convention) {
      case 'posix':
        if (!path.startsWith('/')) fail('NotAbsolute', 'POSIX path must start with /', path);
        return PathUri.of(resolve(POSIX, [], path.split('/'), path));
      case 'windows':
        return PathUri.of(fromWindowsPath(path));
    }
  }

  private static of({ anchor, below }: Resolved): PathUri {
    return new PathUri(anchor, below);
  }

  /** 'posix' for `/…`, 'drive' for `c:/…`, 'unc' for `//server/share/…`. */
  get kind(): 'posix' | 'drive' | 'unc' {
    return this.anchor.kind;
  }

  /** The native convention this path belongs to: drive and UNC paths are 'windows'. */
  get convention(): PathConvention {
    return this.anchor.kind === 'posix' ? 'posix' : 'windows';
  }

  /** The UNC host (lower case), or '' for POSIX and drive paths. */
  get authority(): string {
    return this.anchor.kind === 'unc' ? this.anchor.host : '';
  }

  /** The decoded `/`-separated URI path: '/a/b', '/c:/x' (drive root '/c:/'), '/share/x' for UNC. */
  get path(): string {
    const tail = this.below.join('/');
    switch (this.anchor.kind) {
      case 'posix':
        return `/${tail}`;
      case 'drive':
        return `/${this.anchor.letter}:/${tail}`;
      case 'unc':
        return tail === '' ? `/${this.anchor.share}` : `/${this.anchor.share}/${tail}`;
    }
  }

  /** True for `/`, a drive root `c:/` and a UNC share root `//server/share`. */
  get isRoot(): boolean {
    return this.below.length === 0;
  }

  /** The root this path hangs from: `/`, `c:/` or `//server/share`. */
  root(): PathUri {
    return this.isRoot ? this : new PathUri(this.anchor, []);
  }

  /** The containing directory; a root is its own parent (drive letter and UNC share are kept). */
  parent(): PathUri {
    return this.isRoot ? this : new PathUri(this.anchor, this.below.slice(0, -1));
  }

  /** The last decoded segment, or '' for a root. */
  basename(): string {
    return this.below.at(-1) ?? '';
  }

  /**
   * Lexically appends relative segments. Each argument may hold several parts separated by `/`
   * (and also by `\` when this is a drive or UNC path); empty parts and `.` are ignored, `..` pops.
   *
   * Why throw instead of clamping at the root: a clamped `../../etc` silently names a different
   * file, which is how sandbox escapes hide; callers that want clamping can catch 'EscapesRoot'.
   * On a POSIX path `\` is rejected ('InvalidSegment') rather than split or kept, because a file
   * URI cannot carry it (`%5C` is refused as an encoded separator).
   *
   * @throws PathUriError 'AbsoluteSegment' (`/x`, `\x`, `C:\x`, and `C:x` on Windows paths),
   * 'NulNotAllowed', 'EscapesRoot', 'InvalidSegment', 'DriveLetterSegment'.
   */
  join(...segments: string[]): PathUri {
    const windows = this.anchor.kind !== 'posix';
    const parts: string[] = [];
    for (const segment of segments) {
      if (segment.includes('\0')) fail('NulNotAllowed', 'path segment contains a NUL character', segment);
      if (/^[\\/]/.test(segment) || DRIVE_ABSOLUTE.test(segment) || (windows && DRIVE_PREFIX.test(segment))) {
        fail('AbsoluteSegment', 'join takes relative segments only', segment);
      }
      parts.push(...segment.split(windows ? /[\\/]/ : '/'));
    }
    return PathUri.of(resolve(this.anchor, this.below, parts, segments.join('/')));
  }

  /** True when `other` is this path or lies beneath it, segment-wise (`/a` does not contain `/ab`). */
  contains(other: PathUri): boolean {
    return (
      sameAnchor(this.anchor, other.anchor) &&
      this.below.length <= other.below.length &&
      this.below.every((segment, index) => segment === other.below[index])
    );
  }

  /** Exact equality after normalisation; only the drive letter and host are case-insensitive. */
  equals(other: PathUri): boolean {
    return this.below.length === other.below.length && this.contains(other);
  }

  /**
   * The native spelling: POSIX `/a/b`; Windows `c:\a\b` or `\\server\share\a`.
   *
   * @throws PathUriError 'NotRepresentable' when the path belongs to the other convention: a POSIX
   * path has no drive on Windows, and POSIX has no UNC or drive syntax, so neither would round-trip.
   */
  toNativePath(convention: PathConvention): string {
    const anchor = this.anchor;
    if (anchor.kind === 'posix') {
      if (convention === 'posix') return this.path;
    } else if (convention === 'windows') {
      const tail = this.below.join('\\');
      return anchor.kind === 'drive'
        ? `${anchor.letter}:\\${tail}`
        : `\\\\${anchor.host}\\${anchor.share}${tail === '' ? '' : `\\${tail}`}`;
    }
    return fail('NotRepresentable', `a ${anchor.kind} path has no ${convention} spelling`, this.toString());
  }

  /**
   * The canonical URI: every character except RFC 3986 unreserved ones (`A-Za-z0-9-._~`) is
   * percent-encoded, save the drive colon (`file:///c:/x`), so `PathUri.parse` round-trips it.
   */
  toString(): string {
    const tail = this.below.map((segment) => `/${encode(segment)}`).join('');
    switch (this.anchor.kind) {
      case 'posix':
        return `file://${tail === '' ? '/' : tail}`;
      case 'drive':
        return `file:///${this.anchor.letter}:${tail === '' ? '/' : tail}`;
      case 'unc':
        return `file://${encode(this.anchor.host)}/${encode(this.anchor.share)}${tail}`;
    }
  }

  /** Serialises as the canonical URI string, so JSON payloads carry `file:` URIs. */
  toJSON(): string {
    return this.toString();
  }
}

/**
 * zod schema for a `file:` URI string on the wire; parses to a {@link PathUri}. A rejected URI
 * becomes a 'custom' issue whose `params.code` is the {@link PathUriErrorCode}.
 */
export const PathUriString = lazySchema(() => z.string().transform((value, ctx): PathUri => {
  try {
    return PathUri.parse(value);
  } catch (error) {
    if (!(error instanceof PathUriError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message, params: { code: error.code }, input: value });
    return z.NEVER;
  }
}));

/** Resolves `parts` onto `base` under `anchor`, enforcing the segment rules every PathUri keeps. */
function resolve(anchor: Anchor, base: readonly string[], parts: readonly string[], input: string): Resolved {
  const below = [...base];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (below.pop() === undefined) fail('EscapesRoot', "'..' would climb above the root", input);
      continue;
    }
    checkSegment(part, input);
    if (anchor.kind === 'posix' && below.length === 0 && DRIVE_PREFIX.test(part)) {
      fail('DriveLetterSegment', "a POSIX path's first segment may not start with a drive letter (x:)", input);
    }
    below.push(part);
  }
  return { anchor, below };
}

function checkSegment(segment: string, input: string): void {
  if (segment.includes('\\')) {
    fail('InvalidSegment', 'backslash cannot appear in a path segment (file URIs treat it as a separator)', input);
  }
  if (LONE_SURROGATE.test(segment)) fail('InvalidSegment', 'path segment is not well-formed Unicode', input);
}

function fromWindowsPath(path: string): Resolved {
  if (/^[\\/]{2}/.test(path)) {
    const [host = '', ...parts] = path.slice(2).split(/[\\/]/);
    if (host === '?' || host === '.') {
      fail('InvalidHost', 'device and extended-length paths (\\\\?\\, \\\\.\\) are not supported', path);
    }
    return fromUncParts(checkHost(host, path), parts, path);
  }
  if (DRIVE_ABSOLUTE.test(path)) {
    return resolve({ kind: 'drive', letter: path.charAt(0).toLowerCase() }, [], path.slice(3).split(/[\\/]/), path);
  }
  return fail('NotAbsolute', 'Windows path must start with a drive (C:\\) or a UNC share (\\\\server\\share)', path);
}

function fromUncParts(host: string, parts: readonly string[], input: string): Resolved {
  const [share = '', ...rest] = parts;
  if (share === '') fail('MissingShare', 'UNC path needs a share: \\\\server\\share', input);
  if (share === '.' || share === '..') fail('InvalidSegment', `'${share}' is not a UNC share name`, input);
  checkSegment(share, input);
  return resolve({ kind: 'unc', host, share }, [], rest, input);
}

function sameAnchor(a: Anchor, b: Anchor): boolean {
  switch (a.kind) {
    case 'posix':
      return b.kind === 'posix';
    case 'drive':
      return b.kind === 'drive' && a.letter === b.letter;
    case 'unc':
      return b.kind === 'unc' && a.host === b.host && a.share === b.share;
  }
}
