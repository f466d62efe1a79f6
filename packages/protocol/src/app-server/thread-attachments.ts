// Params of `thread/attachment/add|list|remove` and `thread/attachmentOwner/list`: things a client
// ties to a thread, one per type and identity key, with a JSON payload the server keeps as given.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** Any JSON value, but present: a missing one is refused as a missing field. */
const Payload = lazySchema(() =>
  z.unknown().superRefine((value, context) => {
    if (value === undefined) context.addIssue({ code: 'invalid_type', expected: 'unknown', input: value, message: 'Invalid input: expected a JSON value, received undefined' });
  }),
);

/** `thread/attachment/add`: attaches `payload` under its type and key, unless one is there already. */
export const ThreadAttachmentAddParams = lazySchema(() => z.object({ threadId: z.string(), attachmentType: z.string(), identityKey: z.string(), payload: Payload }));
export type ThreadAttachmentAddParams = z.infer<typeof ThreadAttachmentAddParams>;

/** `thread/attachment/list`: a thread's attachments, oldest first, paged. */
export const ThreadAttachmentListParams = lazySchema(() => z.object({ threadId: z.string(), cursor: z.string().nullish(), limit: z.number().int().nonnegative().nullish() }));
export type ThreadAttachmentListParams = z.infer<typeof ThreadAttachmentListParams>;

/** `thread/attachment/remove`: detaches the attachment of this type and key (none there is no error). */
export const ThreadAttachmentRemoveParams = lazySchema(() => z.object({ threadId: z.string(), attachmentType: z.string(), identityKey: z.string() }));
export type ThreadAttachmentRemoveParams = z.infer<typeof ThreadAttachmentRemoveParams>;

/** `thread/attachmentOwner/list`: the threads holding an attachment of this type and key, optionally only (un)archived ones. */
export const ThreadAttachmentOwnerListParams = lazySchema(() => z.object({
  attachmentType: z.string(),
  identityKey: z.string(),
  archived: z.boolean().nullish(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
}));
export type ThreadAttachmentOwnerListParams = z.infer<typeof ThreadAttachmentOwnerListParams>;
