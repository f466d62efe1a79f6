// `thread/attachment/add|list|remove` and `thread/attachmentOwner/list`, as Codex 0.171.0 answers
// them (probed): one attachment per thread, type and identity key (a second add answers the first,
// unchanged), each creation and removal told to all clients as `thread/attachment/updated` after its
// answer, Codex's cursors, and -32602 refusals checked in Codex's order (type, key, then the thread).
import {
  AppServerErrorCode,
  randomUuidV7,
  ThreadAttachmentAddParams,
  ThreadAttachmentListParams,
  ThreadAttachmentOwnerListParams,
  ThreadAttachmentRemoveParams,
} from '@skein/protocol';
import type { ThreadAttachment, ThreadAttachmentKey } from '@skein/rollout';
import * as z from 'zod';
import { AppServerRequestError } from '../app-server-error.js';
import { MAX_PAGE_SIZE } from '../limits.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';
import { storedThreadState } from '../threads/stored-thread.js';
import { parseUuid } from '../threads/thread-id.js';
import { afterResponse } from './threads.js';

const invalidParams = (message: string) => new AppServerRequestError(AppServerErrorCode.InvalidParams, message);
const INVALID_CURSOR = 'invalid pagination cursor';

/** The attachment's type and key, refused when blank (before the thread is looked at). */
function checkIdentity(params: { readonly attachmentType: string; readonly identityKey: string }): void {
  if (params.attachmentType.trim() === '') throw invalidParams('attachmentType must not be empty');
  if (params.identityKey.trim() === '') throw invalidParams('identityKey must not be empty');
}

/** The canonical thread id, or -32602 with the id parser's diagnosis. */
function threadIdOf(raw: string): string {
  const parsed = parseUuid(raw);
  if ('problem' in parsed) throw invalidParams(`invalid thread id: ${parsed.problem}`);
  return parsed.uuid;
}

/** The store, once the thread is known to be a durable one (an ephemeral thread keeps no attachments). */
async function storeOfThread(context: MethodContext, threadId: string) {
  const hub = context.server.threads;
  const store = await hub.store();
  if ((await storedThreadState(hub, store, threadId)) !== 'stored') throw invalidParams(`thread not found: ${threadId}`);
  return store;
}

const pageSize = (limit: number | null | undefined) => Math.min(Math.max(limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);

/** Where a page of a thread's attachments starts: Codex's `<threadId>|<createdAt>|<attachmentId>`, for this thread only. */
function attachmentCursor(cursor: string, threadId: string): ThreadAttachmentKey {
  const [thread, createdAt, id, ...rest] = cursor.split('|');
  const attachmentId = id === undefined ? undefined : parseUuid(id);
  if (rest.length > 0 || thread !== threadId || createdAt === undefined || !/^-?\d{1,15}$/.test(createdAt) || attachmentId === undefined || 'problem' in attachmentId) {
    throw invalidParams(INVALID_CURSOR);
  }
  return { createdAt: Number(createdAt), id: attachmentId.uuid };
}

/** Codex's owner-list cursor: the filter it was issued for and the last thread id. */
const OwnerCursor = z.object({ attachment_type: z.string(), identity_key: z.string(), archived: z.boolean().nullable(), thread_id: z.string() });

function ownerCursorAfter(cursor: string, filter: { readonly attachmentType: string; readonly identityKey: string; readonly archived: boolean | null }): string {
  let parsed: z.infer<typeof OwnerCursor> | undefined;
  try {
    parsed = OwnerCursor.safeParse(JSON.parse(cursor)).data;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || parsed.attachment_type !== filter.attachmentType || parsed.identity_key !== filter.identityKey || parsed.archived !== filter.archived) {
    throw invalidParams(INVALID_CURSOR);
  }
  return parsed.thread_id;
}

function updated(context: MethodContext, threadId: string, attachment: ThreadAttachment, operation: 'created' | 'deleted'): void {
  afterResponse(() =>
    context.server.broadcastToAll('thread/attachment/updated', { threadId, attachmentType: attachment.attachmentType, identityKey: attachment.identityKey, attachmentId: attachment.id, operation }),
  );
}

/** The attachment methods. */
export const THREAD_ATTACHMENT_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'thread/attachment/add',
    defineMethod({
      params: ThreadAttachmentAddParams,
      ownThreadIdCheck: true,
      async handle(params, context) {
        checkIdentity(params);
        const threadId = threadIdOf(params.threadId);
        const store = await storeOfThread(context, threadId);
        const added = await store.threadAttachments.add(threadId, {
          id: randomUuidV7(),
          attachmentType: params.attachmentType,
          identityKey: params.identityKey,
          payload: params.payload,
          createdAt: Math.floor(Date.now() / 1000),
        });
        if (added.outcome === 'created') updated(context, threadId, added.attachment, 'created');
        return { outcome: added.outcome, attachment: added.attachment };
      },
    }),
  ],
  [
    'thread/attachment/list',
    defineMethod({
      params: ThreadAttachmentListParams,
      ownThreadIdCheck: true,
      async handle(params, context) {
        const threadId = threadIdOf(params.threadId);
        const after = params.cursor === undefined || params.cursor === null ? undefined : attachmentCursor(params.cursor, threadId);
        // A thread nothing was attached to, known or not, has an empty list (as in Codex).
        const page = await (await context.server.threads.store()).threadAttachments.list(threadId, { after, limit: pageSize(params.limit) });
        const last = page.attachments.at(-1);
        return { data: page.attachments, nextCursor: page.more && last !== undefined ? `${threadId}|${last.createdAt}|${last.id}` : null };
      },
    }),
  ],
  [
    'thread/attachment/remove',
    defineMethod({
      params: ThreadAttachmentRemoveParams,
      ownThreadIdCheck: true,
      async handle(params, context) {
        checkIdentity(params);
        const threadId = threadIdOf(params.threadId);
        const store = await storeOfThread(context, threadId);
        const removed = await store.threadAttachments.remove(threadId, params.attachmentType, params.identityKey);
        if (removed !== undefined) updated(context, threadId, removed, 'deleted');
        return {};
      },
    }),
  ],
  [
    'thread/attachmentOwner/list',
    defineMethod({
      params: ThreadAttachmentOwnerListParams,
      async handle(params, context) {
        checkIdentity(params);
        const archived = params.archived ?? null;
        const after = params.cursor === undefined || params.cursor === null ? undefined : ownerCursorAfter(params.cursor, { ...params, archived });
        const store = await context.server.threads.store();
        const limit = pageSize(params.limit);
        const owners: { threadId: string; archived: boolean }[] = [];
        let more = false;
        for (const threadId of await store.threadAttachments.owners(params.attachmentType, params.identityKey)) {
          if (after !== undefined && threadId <= after) continue;
          // A thread that is not stored (any more) owns nothing; a loaded one not yet written is live.
          const summary = await store.find(threadId);
          const owner = summary === undefined ? (context.server.threads.isLoaded(threadId) ? { threadId, archived: false } : undefined) : { threadId, archived: summary.archived };
          if (owner === undefined || (archived !== null && owner.archived !== archived)) continue;
          if (owners.length === limit) {
            more = true;
            break;
          }
          owners.push(owner);
        }
        const last = owners.at(-1);
        const nextCursor =
          more && last !== undefined ? JSON.stringify({ attachment_type: params.attachmentType, identity_key: params.identityKey, archived, thread_id: last.threadId }) : null;
        return { data: owners, nextCursor };
      },
    }),
  ],
]);
