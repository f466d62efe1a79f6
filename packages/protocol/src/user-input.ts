// What a client sends as the user's input to a turn (app-server v2 `UserInput`).
import * as z from 'zod';
import { ImageDetail } from './content-item.js';
import { lazySchema } from './lazy-schema.js';

/** A UTF-8 byte range inside a text input (half-open: `start` ≤ i < `end`). */
export const ByteRange = lazySchema(() => z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }));
export type ByteRange = z.infer<typeof ByteRange>;

/** A span of the text the client rendered specially (a pasted block, an attachment chip). */
export const TextElement = lazySchema(() => z.object({ byteRange: ByteRange, placeholder: z.string().nullish() }));
export type TextElement = z.infer<typeof TextElement>;

export const TextUserInput = lazySchema(() => z.object({
  type: z.literal('text'),
  text: z.string(),
  text_elements: z.array(TextElement).default([]),
}));
export type TextUserInput = z.infer<typeof TextUserInput>;

/** An image by URL (http or data URL) or by uploaded file id — exactly one of the two. */
export const ImageUserInput = lazySchema(() => z
  .object({
    type: z.literal('image'),
    url: z.string().optional(),
    fileId: z.string().optional(),
    detail: ImageDetail.nullish(),
  })
  .refine((input) => (input.url === undefined) !== (input.fileId === undefined), {
    message: 'an image input needs exactly one of `url` or `fileId`',
  }));
export type ImageUserInput = z.infer<typeof ImageUserInput>;

/** An image file on the machine the thread runs on. */
export const LocalImageUserInput = lazySchema(() => z.object({
  type: z.literal('localImage'),
  path: z.string(),
  detail: ImageDetail.nullish(),
}));
export type LocalImageUserInput = z.infer<typeof LocalImageUserInput>;

/** An explicit request to use a skill (`$name` in a composer). */
export const SkillUserInput = lazySchema(() => z.object({ type: z.literal('skill'), name: z.string(), path: z.string() }));
export type SkillUserInput = z.infer<typeof SkillUserInput>;

/** A mention of a file, app or plugin by path (`@name` in a composer). */
export const MentionUserInput = lazySchema(() => z.object({ type: z.literal('mention'), name: z.string(), path: z.string() }));
export type MentionUserInput = z.infer<typeof MentionUserInput>;

/** One piece of user input. */
export const UserInput = lazySchema(() => z.union([TextUserInput, ImageUserInput, LocalImageUserInput, SkillUserInput, MentionUserInput]));
export type UserInput = z.infer<typeof UserInput>;
