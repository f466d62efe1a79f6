// The view_image tool on real files in temporary directories, read through LocalFileSystem (and its
// sandboxed runner under bubblewrap where the machine has it), asserting on the exact tool outputs.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { FileSystemSandboxContext, LocalFileSystem, SandboxedFileSystem, type ExecutorFileSystem } from '@skein/exec-server';
import { PathUri, ResponseItem } from '@skein/protocol';
import { probeSandbox } from '@skein/sandboxing';
import { probeSandboxForTests } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LOCAL_IMAGE_BYTES } from '../../session/user-input-items.js';
import { ToolRouter, isToolCall } from '../tool-router.js';
import { VIEW_IMAGE_SPEC, viewImageTool, type ViewImageDetail } from './view-image-tool.js';
import { testToolContext } from '../../../test/support/tool-context.js';

const { skip: SANDBOX_SKIP } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));

/** A real 2×2 red PNG, encoded here: signature, IHDR, one IDAT of filtered rows, IEND. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.from([0, 0xff, 0, 0, 0xff, 0, 0]); // filter byte, then two red pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat([row, row]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Real 4×4 images written by an image library (JPEG quality 50, GIF, lossless WebP).
const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAEAAQDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDjaKKK+8OU/9k=',
  'base64',
);
const TINY_GIF = Buffer.from('R0lGODdhBAAEAIEAAAD/AAAAAAAAAAAAACwAAAAABAAEAAAICQABCBxIsCCAgAA7', 'base64');
const TINY_WEBP = Buffer.from('UklGRhwAAABXRUJQVlA4TA8AAAAvA8AAAAfQ/4j+ByKi/wEA', 'base64');

const signal = new AbortController().signal;
let root: string;
let cwd: PathUri;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-view-image-')));
  cwd = PathUri.fromNativePath(root, 'posix');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const file = (name: string) => path.join(root, name);
const write = (name: string, data: Buffer | string) => writeFileSync(file(name), data);
const dataUrl = (type: string, data: Buffer) => `data:${type};base64,${data.toString('base64')}`;

interface ToolOptions {
  readonly fs?: ExecutorFileSystem;
  readonly sandbox?: FileSystemSandboxContext;
  readonly detail?: ViewImageDetail;
  readonly maxBytes?: number;
}

/** The tool over the local filesystem, with the views it reported. */
function tool(options: ToolOptions = {}) {
  const viewed: [string, string][] = [];
  const handler = viewImageTool({
    detail: options.detail ?? 'original',
    maxBytes: options.maxBytes,
    onViewed: (viewedPath, context) => viewed.push([viewedPath, context.callId]),
  });
  const context = testToolContext({ callId: 'call_1', turnId: 'turn_1', signal, fs: options.fs ?? new LocalFileSystem(), cwd, sandbox: options.sandbox ?? null });
  return { view: (imagePath: string) => handler.handle({ path: imagePath }, context), viewed };
}

/** A managed sandbox context: the whole disk readable, the scratch root writable, plus `extra` entries. */
function sandboxContext(extra: readonly object[] = []): FileSystemSandboxContext {
  return FileSystemSandboxContext.parse({
    permissions: {
      type: 'managed',
      network: 'restricted',
      file_system: {
        type: 'restricted',
        entries: [
          { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
          { path: { type: 'path', path: cwd.toString() }, access: 'write' },
          ...extra,
        ],
      },
    },
    cwd: cwd.toString(),
    windowsSandboxLevel: 'disabled',
  });
}

describe('view_image tool', () => {
  it('offers Codex’s name and parameter schema', () => {
    expect(VIEW_IMAGE_SPEC).toEqual({
      type: 'function',
      name: 'view_image',
      description: expect.any(String) as unknown,
      strict: false,
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: expect.any(String) as unknown } },
        required: ['path'],
        additionalProperties: false,
      },
    });
  });

  it('sends a PNG at a relative path as one input_image with a data URL and the detail, and reports the view', async () => {
    const png = tinyPng();
    mkdirSync(file('shots'));
    write('shots/red.png', png);
    const { view, viewed } = tool();
    expect(await view('shots/red.png')).toEqual({
      output: [{ type: 'input_image', image_url: dataUrl('image/png', png), detail: 'original' }],
      success: true,
    });
    expect(viewed).toEqual([[file('shots/red.png'), 'call_1']]);
  });

  it('sends a JPEG at an absolute path with the detail the host chose', async () => {
    write('photo.jpeg', TINY_JPEG);
    expect(await tool({ detail: 'high' }).view(file('photo.jpeg'))).toEqual({
      output: [{ type: 'input_image', image_url: dataUrl('image/jpeg', TINY_JPEG), detail: 'high' }],
      success: true,
    });
  });

  it.each([
    ['GIF', 'anim.gif', TINY_GIF, 'image/gif'],
    ['WebP', 'pic.webp', TINY_WEBP, 'image/webp'],
  ])('sends a %s image as it is', async (_, name, data, type) => {
    write(name, data);
    expect((await tool().view(name)).output).toEqual([{ type: 'input_image', image_url: dataUrl(type, data), detail: 'original' }]);
  });

  it('goes by the bytes, not the extension: a PNG named .txt is sent as a PNG', async () => {
    const png = tinyPng();
    write('screenshot.txt', png);
    expect((await tool().view('screenshot.txt')).output).toEqual([{ type: 'input_image', image_url: dataUrl('image/png', png), detail: 'original' }]);
  });

  it('refuses a text file named .png', async () => {
    write('fake.png', 'not an image\n');
    const { view, viewed } = tool();
    expect(await view('fake.png')).toEqual({
      output: `${file('fake.png')} is not a PNG, JPEG, GIF or WebP image (judged by its contents, not its name)`,
      success: false,
    });
    expect(viewed).toEqual([]);
  });

  it('refuses an empty file', async () => {
    write('empty.png', '');
    expect((await tool().view('empty.png')).output).toBe(`${file('empty.png')} is not a PNG, JPEG, GIF or WebP image (judged by its contents, not its name)`);
  });

  it('says when the file does not exist', async () => {
    expect(await tool().view('missing.png')).toEqual({
      output: `cannot open the image at ${file('missing.png')}: No such file or directory (os error 2)`,
      success: false,
    });
  });

  it('refuses a directory', async () => {
    mkdirSync(file('pictures'));
    expect(await tool().view('pictures')).toEqual({ output: `${file('pictures')} is a directory; view_image needs an image file`, success: false });
  });

  it('refuses a file over the configured limit without sending it', async () => {
    write('red.png', tinyPng());
    const { view, viewed } = tool({ maxBytes: 64 });
    expect(await view('red.png')).toEqual({
      output: `${file('red.png')} is ${tinyPng().length} bytes; view_image sends images of at most 64 bytes`,
      success: false,
    });
    expect(viewed).toEqual([]);
  });

  it('refuses an image one byte over MAX_LOCAL_IMAGE_BYTES by default', async () => {
    write('huge.png', tinyPng());
    truncateSync(file('huge.png'), MAX_LOCAL_IMAGE_BYTES + 1); // sparse: a PNG signature, then zeros
    expect((await tool().view('huge.png')).output).toBe(
      `${file('huge.png')} is ${MAX_LOCAL_IMAGE_BYTES + 1} bytes; view_image sends images of at most ${MAX_LOCAL_IMAGE_BYTES} bytes`,
    );
  });

  it('accepts an image of exactly the limit', async () => {
    const png = tinyPng();
    write('exact.png', png);
    expect((await tool({ maxBytes: png.length }).view('exact.png')).success).toBe(true);
  });

  it('refuses paths it cannot resolve', async () => {
    expect(await tool().view('')).toEqual({ output: 'view_image needs a path; it was given an empty one', success: false });
    expect((await tool().view('a\0b.png')).output).toMatch(/^view_image cannot use the path a\0b\.png: /);
  });

  it('refuses to read unconfined when the filesystem has no sandbox for a confined turn', async () => {
    write('red.png', tinyPng());
    const result = await tool({ sandbox: sandboxContext() }).view('red.png');
    expect(result.success).toBe(false);
    expect(result.output).toMatch(new RegExp(`^cannot open the image at ${file('red.png')}: .*sandbox`));
  });

  it.skipIf(SANDBOX_SKIP !== '')(`reads through the sandbox, and is refused inside a denied directory${SANDBOX_SKIP}`, async () => {
    const png = tinyPng();
    mkdirSync(file('private'));
    write('private/secret.png', png);
    write('public.png', png);
    const sandboxed = new LocalFileSystem({ sandboxed: new SandboxedFileSystem() });
    const { view, viewed } = tool({ fs: sandboxed, sandbox: sandboxContext([{ path: { type: 'path', path: cwd.join('private').toString() }, access: 'deny' }]) });
    expect((await view('public.png')).output).toEqual([{ type: 'input_image', image_url: dataUrl('image/png', png), detail: 'original' }]);
    expect(await view('private/secret.png')).toEqual({
      output: `cannot open the image at ${file('private/secret.png')}: Permission denied (os error 13)`,
      success: false,
    });
    expect(viewed).toEqual([[file('public.png'), 'call_1']]);
  });

  it('answers through the router as a function_call_output whose output is the content list', async () => {
    const png = tinyPng();
    write('red.png', png);
    const router = new ToolRouter([viewImageTool({ detail: 'original' })]);
    const call = ResponseItem.parse({ type: 'function_call', name: 'view_image', call_id: 'call_9', arguments: '{"path":"red.png"}' });
    if (!isToolCall(call)) throw new Error('not a tool call');
    const { callId: _unused, ...context } = testToolContext({ turnId: 'turn_1', signal, fs: new LocalFileSystem(), cwd });
    expect(await router.dispatch(call, context)).toEqual({
      item: { type: 'function_call_output', call_id: 'call_9', output: [{ type: 'input_image', image_url: dataUrl('image/png', png), detail: 'original' }] },
      success: true,
    });
  });
});
