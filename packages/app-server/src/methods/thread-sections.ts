// `threadSection/list|create|update|delete` and `thread/section/move`, as Codex 0.171.0 answers them
// (probed): the built-in "Pinned" section first and never renamed or deleted, names trimmed and
// never empty, section edits refused with -32602 and moves with -32600 in Codex's words, and every
// move told to all clients as `thread/section/changed` after its answer. Kept in the index database.
import {
  AppServerErrorCode,
  randomUuidV7,
  ThreadSectionCreateParams,
  ThreadSectionDeleteParams,
  ThreadSectionListParams,
  ThreadSectionMoveParams,
  ThreadSectionUpdateParams,
  type ThreadSectionAppearance as WireAppearance,
} from '@skein/protocol';
import { ThreadSectionError, type ThreadSectionAppearance } from '@skein/rollout';
import { AppServerRequestError, refuse } from '../app-server-error.js';
import { MAX_PAGE_SIZE } from '../limits.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { storedThreadState } from '../threads/stored-thread.js';
import { parseUuid } from '../threads/thread-id.js';
import { sectionObject } from '../threads/thread-sections.js';
import { afterResponse } from './threads.js';

const invalidParams = (message: string) => new AppServerRequestError(AppServerErrorCode.InvalidParams, message);

/** A section name as stored: trimmed, never empty. */
function sectionName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidParams('section name must not be empty');
  return trimmed;
}

function appearanceOf(appearance: WireAppearance): ThreadSectionAppearance {
  return { icon: appearance.icon ?? null, color: appearance.color ?? null };
}

/** A refusal of the section table in Codex's words (-32602 for section edits). */
function editRefused(error: unknown, sectionId: string, verb: 'renamed' | 'deleted'): never {
  if (error instanceof ThreadSectionError && error.code === 'SectionNotFound') throw invalidParams(`thread section not found: ${sectionId}`);
  if (error instanceof ThreadSectionError && error.code === 'BuiltInSection') throw invalidParams(`the built-in pinned section cannot be ${verb}`);
  throw error;
}

/** Why a move was refused, in Codex's words (-32600). */
function moveRefusal(code: 'SectionNotFound' | 'BeforeThreadNotInSection' | 'MovedBeforeItself', threadId: string, sectionId: string, beforeThreadId: string): string {
  switch (code) {
    case 'SectionNotFound':
      return `section ${sectionId} does not exist`;
    case 'BeforeThreadNotInSection':
      return `before thread ${beforeThreadId} is not in section ${sectionId}`;
    case 'MovedBeforeItself':
      return `thread ${threadId} cannot be moved before itself`;
  }
}

/** The section methods. */
export const THREAD_SECTION_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'threadSection/list',
    defineMethod({
      params: ThreadSectionListParams,
      async handle(params, context) {
        const sections = (await context.server.threads.store()).threadSections;
        // The cursor is the last id of the page before; any text is a place in id order, as in Codex.
        const limit = Math.min(Math.max(params.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
        const page = await sections.list({ afterId: params.cursor ?? undefined, limit });
        const last = page.sections.at(-1);
        return { data: page.sections.map(sectionObject), nextCursor: page.more && last !== undefined ? last.id : null };
      },
    }),
  ],
  [
    'threadSection/create',
    defineMethod({
      params: ThreadSectionCreateParams,
      async handle(params, context) {
        const name = sectionName(params.name);
        const appearance = params.appearance === undefined || params.appearance === null ? null : appearanceOf(params.appearance);
        const section = await (await context.server.threads.store()).threadSections.create({ id: randomUuidV7(), name, appearance });
        return { section: sectionObject(section) };
      },
    }),
  ],
  [
    'threadSection/update',
    defineMethod({
      params: ThreadSectionUpdateParams,
      async handle(params, context) {
        const name = sectionName(params.name);
        const appearance = params.appearance === undefined || params.appearance === null ? params.appearance : appearanceOf(params.appearance);
        const sections = (await context.server.threads.store()).threadSections;
        try {
          return { section: sectionObject(await sections.update(params.sectionId, name, appearance)) };
        } catch (error) {
          editRefused(error, params.sectionId, 'renamed');
        }
      },
    }),
  ],
  [
    'threadSection/delete',
    defineMethod({
      params: ThreadSectionDeleteParams,
      async handle(params, context) {
        const sections = (await context.server.threads.store()).threadSections;
        try {
          await sections.delete(params.sectionId);
        } catch (error) {
          editRefused(error, params.sectionId, 'deleted');
        }
        return {};
      },
    }),
  ],
  [
    'thread/section/move',
    defineMethod({
      params: ThreadSectionMoveParams,
      async handle(params, context) {
        let beforeThreadId: string | undefined;
        if (params.beforeThreadId !== undefined && params.beforeThreadId !== null) {
          const parsed = parseUuid(params.beforeThreadId);
          if ('problem' in parsed) refuse(`invalid before thread id: ${parsed.problem}`);
          beforeThreadId = parsed.uuid;
        }
        const hub = context.server.threads;
        const store = await hub.store();
        const state = await storedThreadState(hub, store, params.threadId);
        if (state === 'missing') refuse(`thread not found: ${params.threadId}`);
        if (state === 'ephemeral') refuse(`ephemeral thread does not support section moves: ${params.threadId}`);
        if (beforeThreadId !== undefined && params.sectionId === null) refuse('beforeThreadId requires a non-null sectionId');
        try {
          await store.threadSections.move({ threadId: params.threadId, sectionId: params.sectionId, beforeThreadId, nowMs: Date.now() });
        } catch (error) {
          if (!(error instanceof ThreadSectionError) || error.code === 'BuiltInSection') throw error;
          refuse(moveRefusal(error.code, params.threadId, params.sectionId ?? '', beforeThreadId ?? ''));
        }
        afterResponse(() => context.server.broadcastToAll('thread/section/changed', { threadId: params.threadId, sectionId: params.sectionId }));
        return {};
      },
    }),
  ],
]);
