// Behaviour of PathUri at the package boundary: parsing, native conversion, path algebra, zod schema,
// plus fast-check properties for round trips and for join never escaping its root.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PathConvention, PathUriErrorCode } from './path-uri.js';
import { PathUri, PathUriError, PathUriString } from './path-uri.js';

/** Runs `action` and returns the PathUriError code it threw. */
function codeOf(action: () => unknown): PathUriErrorCode {
  try {
    action();
  } catch (error) {
    if (error instanceof PathUriError) return error.code;
    throw error;
  }
  throw new Error('expected a PathUriError, but nothing was thrown');
}

const posix = (path: string): PathUri => PathUri.fromNativePath(path, 'posix');
const windows = (path: string): PathUri => PathUri.fromNativePath(path, 'windows');

describe('PathUri.parse', () => {
  it('parses a POSIX file URI into its decoded path', () => {
    const uri = PathUri.parse('file:///home/ada/notes.md');
    expect(uri.kind).toBe('posix');
    expect(uri.authority).toBe('');
    expect(uri.path).toBe('/home/ada/notes.md');
    expect(uri.toNativePath('posix')).toBe('/home/ada/notes.md');
  });

  it('parses a drive-letter URI and lower-cases the drive letter', () => {
    const uri = PathUri.parse('file:///C:/Users/Ada');
    expect(uri.kind).toBe('drive');
    expect(uri.path).toBe('/c:/Users/Ada');
    expect(uri.toNativePath('windows')).toBe('c:\\Users\\Ada');
    expect(uri.toString()).toBe('file:///c:/Users/Ada');
  });

  it("reads VS Code's encoded drive colon (c%3A) as the same drive", () => {
    expect(PathUri.parse('file:///C%3A/x').equals(PathUri.parse('file:///c:/x'))).toBe(true);
  });

  it('parses a drive root with or without its trailing slash', () => {
    expect(PathUri.parse('file:///d:').path).toBe('/d:/');
    expect(PathUri.parse('file:///D:/').toString()).toBe('file:///d:/');
    expect(PathUri.parse('file:///d:').isRoot).toBe(true);
  });

  it('parses a UNC URI with the lower-cased host as authority and the share as first path segment', () => {
    const uri = PathUri.parse('file://FileServer/Share/dir/a.txt');
    expect(uri.kind).toBe('unc');
    expect(uri.authority).toBe('fileserver');
    expect(uri.path).toBe('/Share/dir/a.txt');
    expect(uri.toNativePath('windows')).toBe('\\\\fileserver\\Share\\dir\\a.txt');
  });

  it('accepts the RFC 8089 minimal form file:/path', () => {
    expect(PathUri.parse('file:/etc/hosts').equals(posix('/etc/hosts'))).toBe(true);
  });

  it('accepts an upper-case scheme', () => {
    expect(PathUri.parse('FILE:///tmp').path).toBe('/tmp');
  });

  it('percent-decodes segments, including multi-byte UTF-8', () => {
    expect(PathUri.parse('file:///a%20b/caf%C3%A9/%F0%9F%90%B1').path).toBe('/a b/café/🐱');
  });

  it('drops empty segments and a trailing slash', () => {
    expect(PathUri.parse('file:///a//b/').path).toBe('/a/b');
  });

  it('resolves dot segments, including percent-encoded ones', () => {
    expect(PathUri.parse('file:///a/./b/../c').path).toBe('/a/c');
    expect(PathUri.parse('file:///a/%2E%2E/b').path).toBe('/b');
  });

  it.each<[PathUriErrorCode, string]>([
    ['NotFileScheme', 'https://example.com/a'],
    ['NotFileScheme', '/home/ada'],
    ['NotFileScheme', 'C:\\Users'],
    ['QueryNotAllowed', 'file:///a?b=1'],
    ['FragmentNotAllowed', 'file:///a#L10'],
    ['CredentialsNotAllowed', 'file://ada@server/share'],
    ['CredentialsNotAllowed', 'file://ada:secret@server/share'],
    ['PortNotAllowed', 'file://server:445/share'],
    ['InvalidHost', 'file://[::1]/share'],
    ['InvalidHost', 'file://my%20server/share'],
    ['InvalidHost', 'file://C:/Users'],
    ['InvalidHost', 'file:////server/share'],
    ['MissingShare', 'file://server'],
    ['MissingShare', 'file://server/'],
    ['EncodedSeparator', 'file:///a%2Fb'],
    ['EncodedSeparator', 'file:///a%2fb'],
    ['EncodedSeparator', 'file:///a%5Cb'],
    ['EncodedSeparator', 'file:///a%5cb'],
    ['NulNotAllowed', 'file:///a\0b'],
    ['NulNotAllowed', 'file:///a%00b'],
    ['MalformedEscape', 'file:///a%zzb'],
    ['MalformedEscape', 'file:///a%2'],
    ['MalformedEscape', 'file:///a%C3'],
    ['MalformedEscape', 'file:///%FF'],
    ['NotAbsolute', 'file:'],
    ['NotAbsolute', 'file://'],
    ['NotAbsolute', 'file:relative/path'],
    ['EscapesRoot', 'file:///..'],
    ['EscapesRoot', 'file:///c:/a/../..'],
    ['EscapesRoot', 'file://server/share/..'],
    ['InvalidSegment', 'file:///a\\b'],
    ['InvalidSegment', 'file:///a\uD800'],
    ['InvalidSegment', 'file://server/../x'],
    ['DriveLetterSegment', 'file:///c:foo/bar'],
  ])('rejects with %s: %j', (code, input) => {
    expect(codeOf(() => PathUri.parse(input))).toBe(code);
  });

  it('throws a PathUriError whose message names the offending input', () => {
    const error = (() => {
      try {
        PathUri.parse('file:///a?b');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PathUriError);
    expect(error).toMatchObject({ name: 'PathUriError', code: 'QueryNotAllowed', input: 'file:///a?b' });
    expect((error as PathUriError).message).toContain('"file:///a?b"');
  });
});

describe('PathUri.fromNativePath', () => {
  it('reads a POSIX path, collapsing repeated slashes and a trailing slash', () => {
    expect(posix('//usr///lib/').path).toBe('/usr/lib');
    expect(posix('/').isRoot).toBe(true);
  });

  it('resolves . and .. lexically in POSIX paths', () => {
    expect(posix('/a/./b/../c').path).toBe('/a/c');
  });

  it('reads Windows drive paths with either separator and lower-cases the drive', () => {
    expect(windows('C:\\Users\\Ada').toString()).toBe('file:///c:/Users/Ada');
    expect(windows('C:/Users/Ada').equals(windows('c:\\Users\\Ada'))).toBe(true);
    expect(windows('C:\\').path).toBe('/c:/');
  });

  it('reads UNC paths with either separator', () => {
    const uri = windows('\\\\Server\\share\\dir\\..\\a.txt');
    expect(uri.toString()).toBe('file://server/share/a.txt');
    expect(windows('//server/share/a.txt').equals(uri)).toBe(true);
  });

  it.each<[PathUriErrorCode, string, PathConvention]>([
    ['NotAbsolute', 'relative/path', 'posix'],
    ['NotAbsolute', '', 'posix'],
    ['NotAbsolute', './a', 'posix'],
    ['NotAbsolute', 'relative\\path', 'windows'],
    ['NotAbsolute', '', 'windows'],
    ['NotAbsolute', 'C:', 'windows'],
    ['NotAbsolute', 'C:relative', 'windows'],
    ['NotAbsolute', '\\rooted\\without\\drive', 'windows'],
    ['NulNotAllowed', '/a\0b', 'posix'],
    ['NulNotAllowed', 'C:\\a\0b', 'windows'],
    ['EscapesRoot', '/a/../..', 'posix'],
    ['EscapesRoot', 'C:\\..', 'windows'],
    ['EscapesRoot', '\\\\server\\share\\..', 'windows'],
    ['MissingShare', '\\\\server', 'windows'],
    ['MissingShare', '\\\\server\\', 'windows'],
    ['InvalidHost', '\\\\?\\C:\\x', 'windows'],
    ['InvalidHost', '\\\\.\\pipe\\x', 'windows'],
    ['InvalidHost', '\\\\\\share', 'windows'],
    ['InvalidHost', '\\\\ada@server\\share', 'windows'],
    ['InvalidSegment', '/a\\b', 'posix'],
    ['DriveLetterSegment', '/C:/x', 'posix'],
  ])('rejects with %s: %j (%s)', (code, input, convention) => {
    expect(codeOf(() => PathUri.fromNativePath(input, convention))).toBe(code);
  });
});

describe('PathUri.toNativePath', () => {
  it('spells POSIX paths with /', () => {
    expect(posix('/a/b').toNativePath('posix')).toBe('/a/b');
    expect(posix('/').toNativePath('posix')).toBe('/');
  });

  it('spells drive paths and drive roots with \\', () => {
    expect(windows('D:/a/b').toNativePath('windows')).toBe('d:\\a\\b');
    expect(windows('D:/').toNativePath('windows')).toBe('d:\\');
  });

  it('spells UNC paths and share roots with a \\\\ prefix', () => {
    expect(windows('//srv/share/a').toNativePath('windows')).toBe('\\\\srv\\share\\a');
    expect(windows('//srv/share').toNativePath('windows')).toBe('\\\\srv\\share');
  });

  it('refuses to spell a path in the other convention', () => {
    expect(codeOf(() => posix('/a').toNativePath('windows'))).toBe('NotRepresentable');
    expect(codeOf(() => windows('c:\\a').toNativePath('posix'))).toBe('NotRepresentable');
    expect(codeOf(() => windows('\\\\s\\share').toNativePath('posix'))).toBe('NotRepresentable');
  });

  it('reports the convention each kind belongs to', () => {
    expect(posix('/a').convention).toBe('posix');
    expect(windows('c:\\a').convention).toBe('windows');
    expect(windows('\\\\s\\share').convention).toBe('windows');
  });
});

describe('PathUri.toString', () => {
  it.each<[string, string]>([
    ['/home/ada/my notes.md', 'file:///home/ada/my%20notes.md'],
    ['/issue#42', 'file:///issue%2342'],
    ['/100%', 'file:///100%25'],
    ['/what?', 'file:///what%3F'],
    ['/café/🐱', 'file:///caf%C3%A9/%F0%9F%90%B1'],
    ["/it's (1)!*", 'file:///it%27s%20%281%29%21%2A'],
    ['/x/a:b@c+d', 'file:///x/a%3Ab%40c%2Bd'],
  ])('percent-encodes %j as %j and parses it back', (native, uri) => {
    const path = posix(native);
    expect(path.toString()).toBe(uri);
    expect(PathUri.parse(uri).toNativePath('posix')).toBe(native);
  });

  it('keeps the drive colon literal and encodes the rest', () => {
    expect(windows('C:\\Program Files\\a#b').toString()).toBe('file:///c:/Program%20Files/a%23b');
  });

  it('prints roots canonically', () => {
    expect(posix('/').toString()).toBe('file:///');
    expect(windows('c:\\').toString()).toBe('file:///c:/');
    expect(windows('\\\\srv\\share').toString()).toBe('file://srv/share');
  });

  it('serialises to the URI string in JSON', () => {
    expect(JSON.stringify({ cwd: posix('/a b') })).toBe('{"cwd":"file:///a%20b"}');
  });
});

describe('PathUri.join', () => {
  it('appends relative segments, each of which may hold / separators', () => {
    expect(posix('/a').join('b/c', 'd.ts').path).toBe('/a/b/c/d.ts');
  });

  it('ignores empty and . segments and pops ..', () => {
    expect(posix('/a/b').join('', '.', '../c', './d/').path).toBe('/a/c/d');
  });

  it('returns an equal path when given nothing to join', () => {
    expect(posix('/a').join().equals(posix('/a'))).toBe(true);
  });

  it('splits on \\ as well as / under drive and UNC roots', () => {
    expect(windows('C:\\a').join('b\\c/d').toNativePath('windows')).toBe('c:\\a\\b\\c\\d');
    expect(windows('\\\\s\\share').join('x\\y').toString()).toBe('file://s/share/x/y');
  });

  it('rejects a backslash under a POSIX root instead of guessing', () => {
    expect(codeOf(() => posix('/a').join('b\\c'))).toBe('InvalidSegment');
  });

  it('throws EscapesRoot instead of clamping at a POSIX, drive or UNC root', () => {
    expect(codeOf(() => posix('/a').join('../..'))).toBe('EscapesRoot');
    expect(codeOf(() => windows('C:\\a').join('..', '..', 'Windows'))).toBe('EscapesRoot');
    expect(codeOf(() => windows('\\\\s\\share\\a').join('..\\..\\other'))).toBe('EscapesRoot');
  });

  it('may climb back down after going up to the root', () => {
    expect(windows('\\\\s\\share\\a').join('..', 'b').toNativePath('windows')).toBe('\\\\s\\share\\b');
  });

  it.each(['/etc', '\\etc', 'C:\\Windows', 'c:/x', '\\\\server\\share'])(
    'rejects the absolute segment %j',
    (segment) => {
      expect(codeOf(() => posix('/a').join(segment))).toBe('AbsoluteSegment');
      expect(codeOf(() => windows('c:\\a').join(segment))).toBe('AbsoluteSegment');
    },
  );

  it('rejects a drive-relative segment under a Windows root', () => {
    expect(codeOf(() => windows('c:\\a').join('d:x'))).toBe('AbsoluteSegment');
  });

  it('rejects a segment that would turn a POSIX path into a drive path', () => {
    expect(codeOf(() => posix('/').join('c:'))).toBe('DriveLetterSegment');
    expect(posix('/a').join('c:').path).toBe('/a/c:');
  });

  it('rejects NUL in a segment', () => {
    expect(codeOf(() => posix('/a').join('b\0c'))).toBe('NulNotAllowed');
  });
});

describe('PathUri.parent and basename', () => {
  it('returns the containing directory and the last segment', () => {
    const file = posix('/a/b.txt');
    expect(file.parent().path).toBe('/a');
    expect(file.basename()).toBe('b.txt');
  });

  it('treats a POSIX root as its own parent with an empty basename', () => {
    expect(posix('/a').parent().parent().equals(posix('/'))).toBe(true);
    expect(posix('/').basename()).toBe('');
  });

  it('keeps the drive letter when climbing to a drive root', () => {
    const root = windows('D:\\a').parent();
    expect(root.toNativePath('windows')).toBe('d:\\');
    expect(root.parent().equals(root)).toBe(true);
    expect(root.basename()).toBe('');
  });

  it('keeps the UNC share when climbing to the share root', () => {
    const root = windows('\\\\s\\share\\a').parent();
    expect(root.toNativePath('windows')).toBe('\\\\s\\share');
    expect(root.parent().equals(root)).toBe(true);
    expect(root.basename()).toBe('');
  });

  it('exposes the root of any path', () => {
    expect(windows('\\\\s\\share\\a\\b').root().toString()).toBe('file://s/share');
  });
});

describe('PathUri.equals and contains', () => {
  it('folds the case of drive letters and hosts only', () => {
    expect(windows('C:\\A').equals(windows('c:\\A'))).toBe(true);
    expect(windows('c:\\A').equals(windows('c:\\a'))).toBe(false);
    expect(windows('\\\\SRV\\share').equals(windows('\\\\srv\\share'))).toBe(true);
    expect(windows('\\\\srv\\Share').equals(windows('\\\\srv\\share'))).toBe(false);
  });

  it('distinguishes drives, hosts and kinds', () => {
    expect(windows('c:\\a').equals(windows('d:\\a'))).toBe(false);
    expect(windows('\\\\a\\s').equals(windows('\\\\b\\s'))).toBe(false);
    expect(posix('/a').equals(windows('\\\\s\\a'))).toBe(false);
  });

  it('contains descendants segment-wise, not by string prefix', () => {
    expect(posix('/a').contains(posix('/a/b'))).toBe(true);
    expect(posix('/a').contains(posix('/a'))).toBe(true);
    expect(posix('/a').contains(posix('/ab'))).toBe(false);
    expect(posix('/a/b').contains(posix('/a'))).toBe(false);
  });
});

describe('PathUriString', () => {
  it('parses a URI string into a PathUri', () => {
    const parsed = PathUriString.parse('file:///c:/x');
    expect(parsed).toBeInstanceOf(PathUri);
    expect(parsed.toNativePath('windows')).toBe('c:\\x');
  });

  it('reports a rejected URI as a custom zod issue carrying the PathUriError code', () => {
    const result = PathUriString.safeParse('file://ada@server/share');
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        params: { code: 'CredentialsNotAllowed' },
        message: expect.stringContaining('file://ada@server/share') as unknown,
      }),
    ]);
  });

  it('reports a non-string as an ordinary type issue', () => {
    expect(PathUriString.safeParse(42).error?.issues[0]?.code).toBe('invalid_type');
  });
});

describe('PathUri properties', () => {
  const isDotSegment = (segment: string): boolean => segment === '.' || segment === '..';
  // Arbitrary unicode minus separators and NUL, weighted towards characters that need encoding.
  const segment = fc
    .oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
      fc.string({
        unit: fc.constantFrom('a', 'Z', ' ', '%', '#', '?', ':', '@', '.', '~', '+', 'é', '🐱', '%2F', '\u0301'),
        minLength: 1,
        maxLength: 8,
      }),
    )
    .filter((s) => !/[/\\\0]/.test(s) && !isDotSegment(s));
  const segments = fc.array(segment, { maxLength: 6 });
  const host = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9.-]{0,15}$/);
  const driveLetter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCZ');

  const posixPath = segments
    .filter(([first]) => first === undefined || !/^[A-Za-z]:/.test(first))
    .map((parts) => posix(`/${parts.join('/')}`));
  const drivePath = fc
    .tuple(driveLetter, segments)
    .map(([letter, parts]) => windows(`${letter}:\\${parts.join('\\')}`));
  const uncPath = fc
    .tuple(host, segment, segments)
    .map(([server, share, parts]) => windows(`\\\\${server}\\${[share, ...parts].join('\\')}`));
  const pathUri = fc.oneof(posixPath, drivePath, uncPath);

  it('round-trips parse(toString()) for any path', () => {
    fc.assert(
      fc.property(pathUri, (uri) => {
        const reparsed = PathUri.parse(uri.toString());
        expect(reparsed.equals(uri)).toBe(true);
        expect(reparsed.toString()).toBe(uri.toString());
      }),
    );
  });

  it('round-trips fromNativePath(toNativePath(c), c) in the path’s own convention', () => {
    fc.assert(
      fc.property(pathUri, (uri) => {
        const native = uri.toNativePath(uri.convention);
        expect(PathUri.fromNativePath(native, uri.convention).equals(uri)).toBe(true);
      }),
    );
  });

  it('never lets join escape the root, and without .. never leaves the base', () => {
    const dots = fc.constantFrom('..', '..', '.', '');
    // Weighted so most runs join successfully or climb too far, not just hit an absolute segment.
    const joinArg = fc.oneof(
      { arbitrary: segment, weight: 3 },
      { arbitrary: fc.constantFrom('..', '.', '', '../..', 'a/..', '../x', '..\\..', './'), weight: 4 },
      {
        arbitrary: fc
          .tuple(fc.array(fc.oneof(segment, dots), { maxLength: 5 }), fc.constantFrom('/', '\\'))
          .map(([parts, separator]) => parts.join(separator)),
        weight: 3,
      },
      { arbitrary: fc.constantFrom('/x', 'C:\\x', '\\\\x', 'c:y', 'a\0'), weight: 1 },
    );
    const allowed: readonly PathUriErrorCode[] = [
      'EscapesRoot',
      'AbsoluteSegment',
      'NulNotAllowed',
      // A posix base refuses '\' and a drive-looking first segment rather than reinterpret them.
      'InvalidSegment',
      'DriveLetterSegment',
    ];
    fc.assert(
      fc.property(pathUri, fc.array(joinArg, { maxLength: 8 }), (base, args) => {
        let joined: PathUri;
        try {
          joined = base.join(...args);
        } catch (error) {
          expect(error).toBeInstanceOf(PathUriError);
          expect(allowed).toContain((error as PathUriError).code);
          return;
        }
        expect(joined.root().equals(base.root())).toBe(true);
        expect(base.root().contains(joined)).toBe(true);
        expect(joined.toString().startsWith(base.root().toString())).toBe(true);
        if (!args.some((arg) => arg.split(/[\\/]/).includes('..'))) {
          expect(base.contains(joined)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
