// The view_image tool: Codex 0.171.0's name and parameter schema (our description), reading an image
// through the thread environment's filesystem under the turn's sandbox and answering it as input image content.
import type { FunctionToolHandler, ToolContext, ToolResult } from '@skein/extension-api';
import { FileSystemError, type ExecutorFileSystem, type FileSystemSandboxContext } from '@skein/exec-server';
import { type FunctionToolSpec, lazySchema, PathUri, PathUriError } from '@skein/protocol';
import * as z from 'zod';
import { MAX_LOCAL_IMAGE_BYTES } from '../../session/user-input-items.js';
import { requireEnvironment } from '../require-environment.js';
import { sniffImageType, type ImageMimeType } from './image-type.js';

/** view_image's arguments. Fields Codex does not offer (such as `detail`) are ignored, as Codex 0.171.0 does. */
export const ViewImageArgs = lazySchema(() => z.object({ path: z.string() }));
export type ViewImageArgs = z.infer<typeof ViewImageArgs>;

/** view_image's definition, as offered to the model. */
export const VIEW_IMAGE_SPEC: FunctionToolSpec = {
  type: 'function',
  name: 'view_image',
  description: 'Shows you an image file (PNG, JPEG, GIF or WebP) from the workspace, such as a screenshot or a rendered chart, so you can look at it.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: "The image file's path, absolute or relative to the working directory." },
    },
    required: ['path'],
    additionalProperties: false,
  },
};

/**
 * The `detail` Codex 0.171.0 puts on the image: `original` for models that support it (gpt-5.5 and the
 * other catalog models with `supports_image_detail_original`), `high` for the rest.
 */
export type ViewImageDetail = 'original' | 'high';

/** Stable reasons view_image refuses a path. */
export type ViewImageErrorCode = 'InvalidPath' | 'Unreachable' | 'NotAFile' | 'TooLarge' | 'NotAnImage';

/** Why an image could not be sent; its message is what the model reads. */
export class ViewImageError extends Error {
  override readonly name = 'ViewImageError';
  constructor(
    readonly code: ViewImageErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** An image read from the environment, ready to send. */
export interface LoadedImage {
  /** The absolute path, as a native path of the environment. */
  readonly path: string;
  readonly mimeType: ImageMimeType;
  readonly bytes: Uint8Array;
}

/** Options of {@link viewImageTool}. */
export interface ViewImageToolOptions {
  /** See {@link ViewImageDetail}; the host picks it from the model's capabilities. */
  readonly detail: ViewImageDetail;
  /** Largest file sent, in bytes (default {@link MAX_LOCAL_IMAGE_BYTES}, the limit for images the user attaches). */
  readonly maxBytes?: number | undefined;
  /** Called after an image was read and is about to be sent, with its absolute native path (Codex's view-image event). */
  onViewed?(path: string, context: ToolContext): void;
}

/** Where {@link loadImage} reads: an environment's filesystem, relative to its cwd, under its sandbox. */
export interface ImageSource {
  /** The image is read there, not necessarily on this machine. */
  readonly fs: ExecutorFileSystem;
  /** Relative paths resolve against it. */
  readonly cwd: PathUri;
  /** Confines the read like the turn's commands (null or absent: unconfined). */
  readonly sandbox?: FileSystemSandboxContext | null | undefined;
  readonly maxBytes?: number | undefined;
}

/**
 * The view_image tool, reading from the call's environment. Success answers a content list holding one `input_image` with the file as a
 * base64 data URL and the configured `detail`, as Codex 0.171.0 does; a missing file, a directory,
 * a file over the size limit or one whose bytes are not a PNG, JPEG, GIF or WebP image answers a
 * one-line explanation with `success: false`.
 */
export function viewImageTool(options: ViewImageToolOptions): FunctionToolHandler<ViewImageArgs> {
  return {
    kind: 'function',
    spec: VIEW_IMAGE_SPEC,
    arguments: ViewImageArgs,
    // Reading an image changes nothing, so calls may run alongside others.
    parallel: true,
    async handle(args, context): Promise<ToolResult> {
      const { fileSystem, cwd, sandbox } = requireEnvironment(context);
      let image: LoadedImage;
      try {
        image = await loadImage(args.path, { fs: fileSystem, cwd, sandbox, maxBytes: options.maxBytes });
      } catch (error) {
        if (error instanceof ViewImageError) return { output: error.message, success: false };
        throw error;
      }
      options.onViewed?.(image.path, context);
      const imageUrl = `data:${image.mimeType};base64,${Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64')}`;
      return { output: [{ type: 'input_image', image_url: imageUrl, detail: options.detail }], success: true };
    },
  };
}

/**
 * Reads the image `written` names (absolute, or relative to `cwd`) through `fs` under `sandbox`.
 *
 * @throws ViewImageError with the reason the model should read.
 */
export async function loadImage(
  written: string,
  options: ImageSource,
): Promise<LoadedImage> {
  const maxBytes = options.maxBytes ?? MAX_LOCAL_IMAGE_BYTES;
  const uri = resolveImagePath(options.cwd, written);
  const path = uri.toNativePath(uri.convention);
  const call = { sandbox: options.sandbox };
  const metadata = await reach(() => options.fs.getMetadata(uri, call), `cannot open the image at ${path}`);
  if (!metadata.isFile) {
    throw new ViewImageError('NotAFile', `${path} is ${metadata.isDirectory ? 'a directory' : 'not a regular file'}; view_image needs an image file`);
  }
  // Checked before reading, so an oversized file is never pulled across the wire, and again after,
  // in case it grew in between.
  if (metadata.size > maxBytes) throw tooLarge(path, metadata.size, maxBytes);
  const bytes = await reach(() => options.fs.readFile(uri, call), `cannot read the image at ${path}`);
  if (bytes.byteLength > maxBytes) throw tooLarge(path, bytes.byteLength, maxBytes);
  const mimeType = sniffImageType(bytes);
  if (mimeType === undefined) {
    throw new ViewImageError('NotAnImage', `${path} is not a PNG, JPEG, GIF or WebP image (judged by its contents, not its name)`);
  }
  return { path, mimeType, bytes };
}

function resolveImagePath(cwd: PathUri, written: string): PathUri {
  if (written === '') throw new ViewImageError('InvalidPath', 'view_image needs a path; it was given an empty one');
  try {
    const absolute = cwd.convention === 'posix' ? written.startsWith('/') : /^(?:[A-Za-z]:[\\/]|[\\/]{2})/.test(written);
    return absolute ? PathUri.fromNativePath(written, cwd.convention) : cwd.join(written);
  } catch (error) {
    if (error instanceof PathUriError) throw new ViewImageError('InvalidPath', `view_image cannot use the path ${written}: ${error.message}`);
    throw error;
  }
}

/** A filesystem refusal (missing file, permission or sandbox denial) becomes a message; anything else is a bug and propagates. */
async function reach<T>(call: () => Promise<T>, what: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof FileSystemError) throw new ViewImageError('Unreachable', `${what}: ${error.message}`);
    throw error;
  }
}

function tooLarge(path: string, size: number, maxBytes: number): ViewImageError {
  return new ViewImageError('TooLarge', `${path} is ${size} bytes; view_image sends images of at most ${maxBytes} bytes`);
}
