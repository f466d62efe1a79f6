// Content parts of Responses API messages and of tool outputs, as Codex 0.171.0 reads and writes them.
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Image detail levels accepted by the Responses API. */
export const ImageDetail = lazySchema(() => z.enum(['auto', 'low', 'high', 'original']));
export type ImageDetail = z.infer<typeof ImageDetail>;

/** Text the user, developer or a tool gives the model. */
export const InputTextContent = lazySchema(() => z.looseObject({ type: z.literal('input_text'), text: z.string() }));
export type InputTextContent = z.infer<typeof InputTextContent>;

/** An image given to the model, by URL (often a data URL) or uploaded file id. */
export const InputImageContent = lazySchema(() => z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().optional(),
  file_id: z.string().optional(),
  detail: ImageDetail.nullish(),
}));
export type InputImageContent = z.infer<typeof InputImageContent>;

/** Text the model produced. */
export const OutputTextContent = lazySchema(() => z.looseObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.unknown()).nullish(),
  logprobs: z.array(z.unknown()).nullish(),
}));
export type OutputTextContent = z.infer<typeof OutputTextContent>;

const KNOWN_CONTENT_TYPES = new Set(['input_text', 'input_image', 'output_text']);

/** A content part of a type this version does not model; kept whole so nothing is lost on the way through. */
export const OtherContent = lazySchema(() => z.looseObject({
  type: z.string().refine((type) => !KNOWN_CONTENT_TYPES.has(type), 'this content type has its own schema'),
}));
export type OtherContent = z.infer<typeof OtherContent>;

/** One content part of a message. */
export const ContentItem = lazySchema(() => z.union([
  z.discriminatedUnion('type', [InputTextContent, InputImageContent, OutputTextContent]),
  OtherContent,
]));
export type ContentItem = z.infer<typeof ContentItem>;

/** One content part of a tool output (text or image; other kinds are passed through). */
export const ToolOutputContentItem = lazySchema(() => z.union([
  z.discriminatedUnion('type', [InputTextContent, InputImageContent]),
  OtherContent,
]));
export type ToolOutputContentItem = z.infer<typeof ToolOutputContentItem>;

/** A tool output body: plain text, or a list of content parts. */
export const ToolOutputBody = lazySchema(() => z.union([z.string(), z.array(ToolOutputContentItem)]));
export type ToolOutputBody = z.infer<typeof ToolOutputBody>;
