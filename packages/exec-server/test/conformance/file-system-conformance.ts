// The filesystem half of the conformance suite: every ExecutorFileSystem method, symlinks, large files,
// permission errors, missing paths and sandbox-denied writes — asserted identically for every target.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathUri } from '@skein/protocol';
import { skipWithReason } from '@skein/test-support';
import { FILE_READ_CHUNK_BYTES, FileSystemError, MAX_OPEN_FILE_HANDLES, MAX_READ_FILE_BYTES, type FileSystemErrorCode } from '../../src/index.js';
import { CHATTR_SKIP, SANDBOX_SKIP, Scratch, denyEntry, sandboxContext, type ConformanceTarget, type ExecutorUnderTest } from './harness.js';

const encoder = new TextEncoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);
const text = (data: Uint8Array): string => Buffer.from(data).toString('utf8');

async function failsWith(promise: Promise<unknown>, code: FileSystemErrorCode): Promise<FileSystemError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, `expected FileSystemError ${code}`).toBeInstanceOf(FileSystemError);
  expect((error as FileSystemError).code).toBe(code);
  return error as FileSystemError;
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Registers the filesystem conformance tests for `target`. */
export function describeFileSystemConformance(target: ConformanceTarget): void {
  describe(`ExecutorFileSystem conformance: ${target.name}`, () => {
    let executor: ExecutorUnderTest;
    let box: Scratch;
    beforeEach(async () => {
      executor = await target.open();
      box = new Scratch();
    });
    afterEach(async () => {
      await executor.close();
      box.dispose();
    });
    const fs = () => executor.fileSystem;

    describe('readFile / writeFile', () => {
      it('round-trips arbitrary bytes, replacing an existing file', async () => {
        const data = new Uint8Array([0, 1, 2, 0xff, 0xfe, 10, 13, 0]);
        await fs().writeFile(box.uri('f.bin'), bytes('old contents that are longer'));
        await fs().writeFile(box.uri('f.bin'), data);
        expect(await fs().readFile(box.uri('f.bin'))).toEqual(data);
        expect(readFileSync(box.path('f.bin'))).toEqual(Buffer.from(data));
      });

      it('writes and reads an empty file', async () => {
        await fs().writeFile(box.uri('empty'), new Uint8Array());
        expect(statSync(box.path('empty')).size).toBe(0);
        expect(await fs().readFile(box.uri('empty'))).toEqual(new Uint8Array());
      });

      it('reads text as UTF-8 and refuses bytes that are not UTF-8', async () => {
        writeFileSync(box.path('ok.txt'), 'grüße ✓\n');
        writeFileSync(box.path('bad.txt'), Buffer.from([0x61, 0xff, 0x62]));
        expect(await fs().readFileText(box.uri('ok.txt'))).toBe('grüße ✓\n');
        const error = await failsWith(fs().readFileText(box.uri('bad.txt')), 'InvalidUtf8');
        expect(error.message).toContain('bad.txt');
      });

      it('reports missing paths, directories and files used as directories', async () => {
        mkdirSync(box.path('dir'));
        writeFileSync(box.path('file'), 'x');
        await failsWith(fs().readFile(box.uri('missing')), 'NotFound');
        await failsWith(fs().readFile(box.uri('dir')), 'NotAFile');
        await failsWith(fs().readFile(box.uri('file/inner')), 'NotADirectory');
        await failsWith(fs().writeFile(box.uri('no/parent.txt'), bytes('x')), 'NotFound');
        await failsWith(fs().writeFile(box.uri('dir'), bytes('x')), 'IsADirectory');
        await failsWith(fs().writeFile(box.uri('file/inner'), bytes('x')), 'NotADirectory');
        expect(existsSync(box.path('no'))).toBe(false);
        expect(readFileSync(box.path('file'), 'utf8')).toBe('x');
      });

      it('reads and writes through a symlink to the target', async () => {
        writeFileSync(box.path('target.txt'), 'before');
        symlinkSync('target.txt', box.path('link'));
        expect(text(await fs().readFile(box.uri('link')))).toBe('before');
        await fs().writeFile(box.uri('link'), bytes('after'));
        expect(readFileSync(box.path('target.txt'), 'utf8')).toBe('after');
        expect(lstatSync(box.path('link')).isSymbolicLink()).toBe(true);
      });

      it('rejects a path of another operating system', async () => {
        await failsWith(fs().readFile(PathUri.parse('file:///c:/Windows/win.ini')), 'InvalidPath');
        await failsWith(fs().writeFile(PathUri.parse('file://server/share/x'), bytes('x')), 'InvalidPath');
      });
    });

    describe('large files', () => {
      it('round-trips a multi-megabyte file and streams it in 1 MiB chunks', async () => {
        const data = randomBytes(5 * FILE_READ_CHUNK_BYTES + 12_345);
        await fs().writeFile(box.uri('big.bin'), data);
        expect(Buffer.from(await fs().readFile(box.uri('big.bin'))).equals(data)).toBe(true);
        const chunks = await collect(fs().readFileStream(box.uri('big.bin')));
        expect(chunks.map((chunk) => chunk.byteLength)).toEqual([...Array<number>(5).fill(FILE_READ_CHUNK_BYTES), 12_345]);
        expect(Buffer.concat(chunks).equals(data)).toBe(true);
      });

      it('streams an empty file as no chunks and an exact multiple of the chunk size without a trailing empty one', async () => {
        writeFileSync(box.path('empty'), '');
        writeFileSync(box.path('two'), Buffer.alloc(2 * FILE_READ_CHUNK_BYTES, 7));
        expect(await collect(fs().readFileStream(box.uri('empty')))).toEqual([]);
        expect((await collect(fs().readFileStream(box.uri('two')))).map((chunk) => chunk.byteLength)).toEqual([
          FILE_READ_CHUNK_BYTES,
          FILE_READ_CHUNK_BYTES,
        ]);
      });

      it('releases the file when a stream is abandoned early', async () => {
        writeFileSync(box.path('big'), Buffer.alloc(3 * FILE_READ_CHUNK_BYTES, 1));
        // More abandoned streams than the per-connection handle limit: a leak would make one fail.
        for (let round = 0; round < MAX_OPEN_FILE_HANDLES + 4; round += 1) {
          for await (const chunk of fs().readFileStream(box.uri('big'))) {
            expect(chunk.byteLength).toBe(FILE_READ_CHUNK_BYTES);
            break;
          }
        }
      });

      it('fails a stream of a missing path or a directory before yielding anything', async () => {
        mkdirSync(box.path('dir'));
        await failsWith(collect(fs().readFileStream(box.uri('missing'))), 'NotFound');
        await failsWith(collect(fs().readFileStream(box.uri('dir'))), 'NotAFile');
      });

      it('refuses to read a file over the single-read limit in one piece, but streams it', async () => {
        // Sparse: no disk is used for the hole.
        writeFileSync(box.path('huge'), '');
        truncateSync(box.path('huge'), MAX_READ_FILE_BYTES + 1);
        const error = await failsWith(fs().readFile(box.uri('huge')), 'TooLarge');
        expect(error.message).toContain('readFileStream');
        for await (const chunk of fs().readFileStream(box.uri('huge'))) {
          expect(chunk.byteLength).toBe(FILE_READ_CHUNK_BYTES);
          break;
        }
      });
    });

    describe('createDirectory', () => {
      it('creates one level, and refuses an existing path or a missing parent unless recursive', async () => {
        await fs().createDirectory(box.uri('one'));
        expect(statSync(box.path('one')).isDirectory()).toBe(true);
        await failsWith(fs().createDirectory(box.uri('one')), 'AlreadyExists');
        await failsWith(fs().createDirectory(box.uri('a/b/c')), 'NotFound');
        expect(existsSync(box.path('a'))).toBe(false);
      });

      it('creates every missing parent with recursive and accepts an existing directory', async () => {
        await fs().createDirectory(box.uri('a/b/c'), { recursive: true });
        expect(statSync(box.path('a/b/c')).isDirectory()).toBe(true);
        await fs().createDirectory(box.uri('a/b/c'), { recursive: true });
      });

      it('refuses a path that is a file or runs through one', async () => {
        writeFileSync(box.path('file'), 'x');
        await failsWith(fs().createDirectory(box.uri('file'), { recursive: true }), 'AlreadyExists');
        await failsWith(fs().createDirectory(box.uri('file/sub'), { recursive: true }), 'NotADirectory');
      });
    });

    describe('getMetadata', () => {
      it('describes files and directories with sizes and times from the filesystem', async () => {
        writeFileSync(box.path('f.txt'), 'hello');
        mkdirSync(box.path('d'));
        const file = await fs().getMetadata(box.uri('f.txt'));
        const own = statSync(box.path('f.txt'));
        expect(file).toEqual({
          isDirectory: false,
          isFile: true,
          isSymlink: false,
          size: 5,
          createdAtMs: Math.trunc(own.birthtimeMs),
          modifiedAtMs: Math.trunc(own.mtimeMs),
        });
        const dir = await fs().getMetadata(box.uri('d'));
        expect(dir).toMatchObject({ isDirectory: true, isFile: false, isSymlink: false, size: statSync(box.path('d')).size });
      });

      it('follows symlinks by default, reporting the target and that a link was followed', async () => {
        writeFileSync(box.path('target.txt'), '123456789');
        mkdirSync(box.path('target-dir'));
        symlinkSync('target.txt', box.path('file-link'));
        symlinkSync('target-dir', box.path('dir-link'));
        expect(await fs().getMetadata(box.uri('file-link'))).toMatchObject({ isFile: true, isDirectory: false, isSymlink: true, size: 9 });
        expect(await fs().getMetadata(box.uri('dir-link'))).toMatchObject({ isFile: false, isDirectory: true, isSymlink: true });
      });

      it('reports a dangling symlink and a missing path as not found', async () => {
        symlinkSync('nowhere', box.path('dangling'));
        await failsWith(fs().getMetadata(box.uri('dangling')), 'NotFound');
        await failsWith(fs().getMetadata(box.uri('missing')), 'NotFound');
      });

      it('refuses symlinks anywhere in the path when asked not to follow them', async () => {
        writeFileSync(box.path('plain'), 'x');
        symlinkSync('plain', box.path('link'));
        mkdirSync(box.path('real'));
        writeFileSync(box.path('real/inner'), 'x');
        symlinkSync('real', box.path('dir-link'));
        expect(await fs().getMetadata(box.uri('plain'), { followSymlinks: false })).toMatchObject({ isFile: true, isSymlink: false });
        await failsWith(fs().getMetadata(box.uri('link'), { followSymlinks: false }), 'SymlinkNotAllowed');
        await failsWith(fs().getMetadata(box.uri('dir-link/inner'), { followSymlinks: false }), 'SymlinkNotAllowed');
      });
    });

    describe('readDirectory', () => {
      it('lists names sorted, describing symlinks by their targets and leaving dangling ones out', async () => {
        writeFileSync(box.path('b.txt'), '');
        mkdirSync(box.path('a-dir'));
        symlinkSync('a-dir', box.path('c-link-to-dir'));
        symlinkSync('b.txt', box.path('d-link-to-file'));
        symlinkSync('nowhere', box.path('e-dangling'));
        expect(await fs().readDirectory(box.uri())).toEqual([
          { fileName: 'a-dir', isDirectory: true, isFile: false },
          { fileName: 'b.txt', isDirectory: false, isFile: true },
          { fileName: 'c-link-to-dir', isDirectory: true, isFile: false },
          { fileName: 'd-link-to-file', isDirectory: false, isFile: true },
        ]);
      });

      it('lists an empty directory as empty and refuses files and missing paths', async () => {
        mkdirSync(box.path('empty'));
        writeFileSync(box.path('file'), '');
        expect(await fs().readDirectory(box.uri('empty'))).toEqual([]);
        await failsWith(fs().readDirectory(box.uri('file')), 'NotADirectory');
        await failsWith(fs().readDirectory(box.uri('missing')), 'NotFound');
      });
    });

    describe('canonicalize', () => {
      it('resolves every symlink on the way', async () => {
        mkdirSync(box.path('real/inner'), { recursive: true });
        symlinkSync('real', box.path('link'));
        symlinkSync(box.path('link/inner'), box.path('absolute-link'));
        expect((await fs().canonicalize(box.uri('link/inner'))).equals(box.uri('real/inner'))).toBe(true);
        expect((await fs().canonicalize(box.uri('absolute-link'))).toString()).toBe(box.uri('real/inner').toString());
      });

      it('refuses missing paths and dangling links', async () => {
        symlinkSync('nowhere', box.path('dangling'));
        await failsWith(fs().canonicalize(box.uri('missing')), 'NotFound');
        await failsWith(fs().canonicalize(box.uri('dangling')), 'NotFound');
      });
    });

    describe('walk', () => {
      const limits = { maxDepth: 64, maxDirectories: 10_000, maxEntries: 50_000, followDirectorySymlinks: false };
      const relative = (uris: readonly { path: PathUri; kind: string }[]) =>
        uris.map((entry) => `${entry.kind === 'directory' ? 'd' : 'f'}:${entry.path.toString().slice(box.uri().toString().length + 1)}`);

      beforeEach(() => {
        mkdirSync(box.path('a/deep/deeper'), { recursive: true });
        mkdirSync(box.path('b'));
        writeFileSync(box.path('top.txt'), '');
        writeFileSync(box.path('a/one.txt'), '');
        writeFileSync(box.path('a/deep/deeper/bottom.txt'), '');
        writeFileSync(box.path('b/two.txt'), '');
      });

      it('lists breadth first, sorted within each directory', async () => {
        const outcome = await fs().walk(box.uri(), limits);
        expect(relative(outcome.entries)).toEqual([
          'd:a', 'd:b', 'f:top.txt',
          'd:a/deep', 'f:a/one.txt', 'f:b/two.txt',
          'd:a/deep/deeper',
          'f:a/deep/deeper/bottom.txt',
        ]);
        expect(outcome).toMatchObject({ errors: [], truncated: false });
      });

      it('stops descending at maxDepth without calling that truncation', async () => {
        const outcome = await fs().walk(box.uri(), { ...limits, maxDepth: 1 });
        expect(relative(outcome.entries)).toEqual(['d:a', 'd:b', 'f:top.txt', 'd:a/deep', 'f:a/one.txt', 'f:b/two.txt']);
        expect(outcome.truncated).toBe(false);
        expect(relative((await fs().walk(box.uri(), { ...limits, maxDepth: 0 })).entries)).toEqual(['d:a', 'd:b', 'f:top.txt']);
      });

      it('reports truncation when the entry or directory bound stops it', async () => {
        const byEntries = await fs().walk(box.uri(), { ...limits, maxEntries: 4 });
        expect(relative(byEntries.entries)).toEqual(['d:a', 'd:b', 'f:top.txt', 'd:a/deep']);
        expect(byEntries.truncated).toBe(true);
        const byDirectories = await fs().walk(box.uri(), { ...limits, maxDirectories: 2 });
        expect(relative(byDirectories.entries)).toEqual(['d:a', 'd:b', 'f:top.txt', 'd:a/deep', 'f:a/one.txt']);
        expect(byDirectories.truncated).toBe(true);
      });

      it('skips symlinks unless asked to follow directory links, and never loops through them', async () => {
        symlinkSync('..', box.path('b/up'));
        symlinkSync('../top.txt', box.path('b/file-link'));
        const plain = await fs().walk(box.uri('b'), limits);
        expect(relative(plain.entries)).toEqual(['f:b/two.txt']);
        const followed = await fs().walk(box.uri('b'), { ...limits, followDirectorySymlinks: true });
        const names = relative(followed.entries);
        expect(names.slice(0, 2)).toEqual(['f:b/two.txt', 'd:b/up']);
        // The link leads back to an ancestor: its contents are listed once, b itself is not re-entered.
        expect(names).toContain('d:b/up/a');
        expect(names.filter((name) => name.startsWith('d:b/up/b/'))).toEqual([]);
        expect(followed.truncated).toBe(false);
      });

      it('reports a name it cannot inspect as an error and goes on', async () => {
        // A name that is not UTF-8 cannot be carried by a file URI losslessly, so it is reported.
        writeFileSync(Buffer.concat([Buffer.from(`${box.path('b')}/bad-`), Buffer.from([0xff])]), '');
        const outcome = await fs().walk(box.uri('b'), limits);
        expect(relative(outcome.entries)).toEqual(['f:b/two.txt']);
        expect(outcome.errors).toHaveLength(1);
        expect(outcome.errors[0]?.path.toString()).toContain('/b/bad-');
        expect(outcome.errors[0]?.message).toMatch(/No such file or directory/);
      });

      it('yields nothing for a file root, and refuses a missing root and out-of-range bounds', async () => {
        expect(await fs().walk(box.uri('top.txt'), limits)).toEqual({ entries: [], errors: [], truncated: false });
        await failsWith(fs().walk(box.uri('missing'), limits), 'NotFound');
        await failsWith(fs().walk(box.uri(), { ...limits, maxEntries: 0 }), 'InvalidArgument');
        await failsWith(fs().walk(box.uri(), { ...limits, maxDepth: 65 }), 'InvalidArgument');
        await failsWith(fs().walk(box.uri(), { ...limits, maxDirectories: 10_001 }), 'InvalidArgument');
      });
    });

    describe('remove', () => {
      it('removes files and empty directories, and refuses a non-empty directory unless recursive', async () => {
        writeFileSync(box.path('f'), '');
        mkdirSync(box.path('empty'));
        mkdirSync(box.path('full/sub'), { recursive: true });
        await fs().remove(box.uri('f'));
        await fs().remove(box.uri('empty'));
        await failsWith(fs().remove(box.uri('full')), 'DirectoryNotEmpty');
        expect(existsSync(box.path('full/sub'))).toBe(true);
        await fs().remove(box.uri('full'), { recursive: true });
        expect(existsSync(box.path('f')) || existsSync(box.path('empty')) || existsSync(box.path('full'))).toBe(false);
      });

      it('removes a symlink, never what it points to', async () => {
        mkdirSync(box.path('target'));
        writeFileSync(box.path('target/keep'), 'x');
        symlinkSync('target', box.path('link'));
        await fs().remove(box.uri('link'), { recursive: true });
        expect(existsSync(box.path('link'))).toBe(false);
        expect(readFileSync(box.path('target/keep'), 'utf8')).toBe('x');
      });

      it('reports a missing path unless forced', async () => {
        await failsWith(fs().remove(box.uri('missing')), 'NotFound');
        await fs().remove(box.uri('missing'), { force: true });
      });

      it('refuses to remove the root directory', async () => {
        await failsWith(fs().remove(PathUri.parse('file:///')), 'InvalidArgument');
      });
    });

    describe('copy', () => {
      it('copies a file, replacing an existing destination file', async () => {
        writeFileSync(box.path('src.txt'), 'content');
        writeFileSync(box.path('dst.txt'), 'old');
        await fs().copy(box.uri('src.txt'), box.uri('dst.txt'));
        expect(readFileSync(box.path('dst.txt'), 'utf8')).toBe('content');
      });

      it('copies a directory tree with recursive, keeping symlinks as symlinks and merging into an existing directory', async () => {
        mkdirSync(box.path('src/nested'), { recursive: true });
        writeFileSync(box.path('src/nested/f'), 'deep');
        symlinkSync('nested/f', box.path('src/link'));
        mkdirSync(box.path('dst'));
        writeFileSync(box.path('dst/already'), 'kept');
        await fs().copy(box.uri('src'), box.uri('dst'), { recursive: true });
        expect(readFileSync(box.path('dst/nested/f'), 'utf8')).toBe('deep');
        expect(readlinkSync(box.path('dst/link'))).toBe('nested/f');
        expect(readFileSync(box.path('dst/already'), 'utf8')).toBe('kept');
      });

      it('copies a symlink itself', async () => {
        symlinkSync('somewhere/else', box.path('link'));
        await fs().copy(box.uri('link'), box.uri('copy'));
        expect(readlinkSync(box.path('copy'))).toBe('somewhere/else');
      });

      it('refuses a directory without recursive, a copy into itself, a file onto a directory, and a missing source', async () => {
        mkdirSync(box.path('dir/sub'), { recursive: true });
        writeFileSync(box.path('file'), 'x');
        await failsWith(fs().copy(box.uri('dir'), box.uri('other')), 'InvalidArgument');
        await failsWith(fs().copy(box.uri('dir'), box.uri('dir/sub/inside'), { recursive: true }), 'InvalidArgument');
        await failsWith(fs().copy(box.uri('file'), box.uri('dir')), 'IsADirectory');
        await failsWith(fs().copy(box.uri('missing'), box.uri('x')), 'NotFound');
        expect(existsSync(box.path('other')) || existsSync(box.path('dir/sub/inside')) || existsSync(box.path('x'))).toBe(false);
      });
    });

    describe('permission errors', () => {
      it.skipIf(CHATTR_SKIP !== '')(`refuses to change an immutable file, even for root${CHATTR_SKIP}`, async (context) => {
        writeFileSync(box.path('locked'), 'original');
        if (!box.makeImmutable('locked')) skipWithReason(context, 'the scratch filesystem does not support chattr +i');
        await failsWith(fs().writeFile(box.uri('locked'), bytes('changed')), 'PermissionDenied');
        await failsWith(fs().remove(box.uri('locked')), 'PermissionDenied');
        expect(readFileSync(box.path('locked'), 'utf8')).toBe('original');
      });

      it.skipIf(SANDBOX_SKIP !== '')(`reports permission bits the sandbox's unprivileged view enforces${SANDBOX_SKIP}`, async () => {
        // Inside the sandbox every capability is dropped, so mode 000 and 0555 bind even a root executor.
        writeFileSync(box.path('secret'), 'hidden');
        chmodSync(box.path('secret'), 0o000);
        mkdirSync(box.path('read-only-dir'));
        chmodSync(box.path('read-only-dir'), 0o555);
        const sandbox = sandboxContext(box.uri());
        await failsWith(fs().readFile(box.uri('secret'), { sandbox }), 'PermissionDenied');
        await failsWith(fs().writeFile(box.uri('read-only-dir/new'), bytes('x'), { sandbox }), 'PermissionDenied');
        expect(existsSync(box.path('read-only-dir/new'))).toBe(false);
        // A walk reports the directory it may not list and goes on with the rest.
        mkdirSync(box.path('closed'));
        writeFileSync(box.path('closed/hidden'), '');
        chmodSync(box.path('closed'), 0o000);
        const walked = await fs().walk(box.uri(), { maxDepth: 3, maxDirectories: 10, maxEntries: 100, followDirectorySymlinks: false }, { sandbox });
        expect(walked.errors).toEqual([{ path: box.uri('closed'), message: 'Permission denied (os error 13)' }]);
        expect(walked.entries.map((entry) => entry.path.toString())).toEqual(expect.arrayContaining([box.uri('closed').toString(), box.uri('secret').toString()]));
        expect(walked.truncated).toBe(false);
      });
    });

    describe.skipIf(SANDBOX_SKIP !== '')(`sandboxed calls${SANDBOX_SKIP}`, () => {
      let outside: Scratch;
      beforeEach(() => {
        outside = new Scratch();
      });
      afterEach(() => outside.dispose());

      it('lets every operation work inside the writable root', async () => {
        const sandbox = sandboxContext(box.uri());
        await fs().writeFile(box.uri('f.txt'), bytes('inside'), { sandbox });
        await fs().createDirectory(box.uri('d/e'), { recursive: true, sandbox });
        await fs().copy(box.uri('f.txt'), box.uri('d/e/g.txt'), { sandbox });
        expect(text(await fs().readFile(box.uri('d/e/g.txt'), { sandbox }))).toBe('inside');
        expect(await fs().readFileText(box.uri('f.txt'), { sandbox })).toBe('inside');
        expect(await fs().getMetadata(box.uri('f.txt'), { sandbox })).toMatchObject({ isFile: true, size: 6 });
        // Inside, the sandbox may show mount points of its own (masks for missing protected paths).
        expect((await fs().readDirectory(box.uri(), { sandbox })).map((entry) => entry.fileName)).toEqual(expect.arrayContaining(['d', 'f.txt']));
        const walked = await fs().walk(box.uri(), { maxDepth: 5, maxDirectories: 20, maxEntries: 100, followDirectorySymlinks: false }, { sandbox });
        expect(walked.entries.map((entry) => entry.path.toString())).toEqual(
          expect.arrayContaining([box.uri('d'), box.uri('f.txt'), box.uri('d/e'), box.uri('d/e/g.txt')].map(String)),
        );
        expect((await fs().canonicalize(box.uri('d/e'), { sandbox })).equals(box.uri('d/e'))).toBe(true);
        expect(Buffer.concat(await collect(fs().readFileStream(box.uri('f.txt'), { sandbox }))).toString()).toBe('inside');
        await fs().remove(box.uri('d'), { recursive: true, sandbox });
        expect(readFileSync(box.path('f.txt'), 'utf8')).toBe('inside');
        // Nothing else is left behind on the host.
        expect(readdirSync(box.dir)).toEqual(['f.txt']);
      });

      it('denies writing, creating, copying into and removing outside the writable root', async () => {
        const sandbox = sandboxContext(box.uri());
        writeFileSync(outside.path('existing'), 'untouched');
        writeFileSync(box.path('inside'), 'x');
        await failsWith(fs().writeFile(outside.uri('new.txt'), bytes('escape'), { sandbox }), 'ReadOnlyFileSystem');
        await failsWith(fs().writeFile(outside.uri('existing'), bytes('escape'), { sandbox }), 'ReadOnlyFileSystem');
        await failsWith(fs().createDirectory(outside.uri('made/here'), { recursive: true, sandbox }), 'ReadOnlyFileSystem');
        await failsWith(fs().copy(box.uri('inside'), outside.uri('copied'), { sandbox }), 'ReadOnlyFileSystem');
        await failsWith(fs().remove(outside.uri('existing'), { sandbox }), 'ReadOnlyFileSystem');
        expect(readFileSync(outside.path('existing'), 'utf8')).toBe('untouched');
        expect(existsSync(outside.path('new.txt')) || existsSync(outside.path('made')) || existsSync(outside.path('copied'))).toBe(false);
        // Reading outside is allowed by this policy.
        expect(text(await fs().readFile(outside.uri('existing'), { sandbox }))).toBe('untouched');
      });

      it('denies writes through a symlink planted in the workspace that points outside', async () => {
        writeFileSync(outside.path('victim'), 'untouched');
        symlinkSync(outside.path('victim'), box.path('planted'));
        await failsWith(fs().writeFile(box.uri('planted'), bytes('escape'), { sandbox: sandboxContext(box.uri()) }), 'ReadOnlyFileSystem');
        expect(readFileSync(outside.path('victim'), 'utf8')).toBe('untouched');
      });

      it('keeps .git inside the writable root read-only', async () => {
        mkdirSync(box.path('.git'));
        writeFileSync(box.path('.git/config'), 'original');
        const sandbox = sandboxContext(box.uri());
        await failsWith(fs().writeFile(box.uri('.git/config'), bytes('changed'), { sandbox }), 'ReadOnlyFileSystem');
        expect(readFileSync(box.path('.git/config'), 'utf8')).toBe('original');
      });

      it('denies reading and writing a denied subtree of the writable root', async () => {
        mkdirSync(box.path('private'));
        writeFileSync(box.path('private/key'), 'secret');
        const sandbox = sandboxContext(box.uri(), [denyEntry(box.uri('private'))]);
        await failsWith(fs().readFile(box.uri('private/key'), { sandbox }), 'PermissionDenied');
        await failsWith(fs().writeFile(box.uri('private/new'), bytes('x'), { sandbox }), 'PermissionDenied');
        expect(existsSync(box.path('private/new'))).toBe(false);
        // The rest of the root stays writable.
        await fs().writeFile(box.uri('public'), bytes('ok'), { sandbox });
        expect(readFileSync(box.path('public'), 'utf8')).toBe('ok');
      });
    });
  });
}
