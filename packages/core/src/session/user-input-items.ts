// Turning what a client sends (`UserInput`) into the user message the model receives. Skills and
// mentions are left to extensions (turn-input contributors); local images are read and inlined.
import path from 'node:path';
import type { ResponseItem, UserInput } from '@skein/protocol';
import type { WorkspaceReader } from './workspace-reader.js';

/** Largest local image inlined into a request. */
export const MAX_LOCAL_IMAGE_BYTES = 20 * 1024 * 1024;

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** Why an input could not be turned into model input. */
export class UserInputError extends Error {
  override readonly name = 'UserInputError';
  constructor(
    readonly code: 'UnsupportedImage' | 'ImageTooLarge' | 'EmptyInput',
    message: string,
  ) {
    super(message);
  }
}

/** How local images are sent. */
export interface UserInputOptions {
  /** The detail a local image is sent at unless the input names one (`original` where the model takes it, as Codex sends it). */
  readonly localImageDetail?: 'high' | 'original' | undefined;
}

/**
 * One user message holding every text and image part, in the order given. A local image goes
 * between `<image name=[Image #N] path="…">` and `</image>` texts, numbered in the message, with the
 * path as the client gave it, as Codex 0.171.0 sends it (probed), so the model can name it.
 */
export async function userInputToItems(input: readonly UserInput[], reader: WorkspaceReader, cwd: string, options: UserInputOptions = {}): Promise<ResponseItem[]> {
  const content: ({ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail?: 'auto' | 'low' | 'high' | 'original' })[] = [];
  let localImages = 0;
  for (const part of input) {
    switch (part.type) {
      case 'text':
        content.push({ type: 'input_text', text: part.text });
        break;
      case 'image':
        if (part.url === undefined) throw new UserInputError('UnsupportedImage', 'images by uploaded file id are not supported; send a URL or a local path');
        content.push({ type: 'input_image', image_url: part.url, ...(part.detail == null ? {} : { detail: part.detail }) });
        break;
      case 'localImage': {
        const file = path.resolve(cwd, part.path);
        const mime = IMAGE_TYPES[path.extname(file).toLowerCase()];
        if (mime === undefined) throw new UserInputError('UnsupportedImage', `${file} is not a PNG, JPEG, GIF or WebP image`);
        const bytes = await reader.readBytes(file);
        if (bytes.byteLength > MAX_LOCAL_IMAGE_BYTES) {
          throw new UserInputError('ImageTooLarge', `${file} is ${bytes.byteLength} bytes; images up to ${MAX_LOCAL_IMAGE_BYTES} bytes can be sent`);
        }
        const detail = part.detail ?? options.localImageDetail;
        localImages += 1;
        content.push({ type: 'input_text', text: `<image name=[Image #${localImages}] path="${part.path}">` });
        content.push({ type: 'input_image', image_url: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`, ...(detail == null ? {} : { detail }) });
        content.push({ type: 'input_text', text: '</image>' });
        break;
      }
      case 'skill':
      case 'mention':
        break;
    }
  }
  if (content.length === 0) return [];
  return [{ type: 'message', role: 'user', content }];
}
