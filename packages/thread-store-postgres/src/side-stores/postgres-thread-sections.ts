// Thread sections in PostgreSQL: the `ThreadSectionStore` of @skein/rollout's SQLite index, shared
// by every host. A move locks its section's row (`FOR UPDATE`), so moves into one section, and an
// edit or delete of it, happen one at a time; positions follow the SQLite store's rules exactly.
import type pg from 'pg';
import {
  PINNED_SECTION_ID,
  SECTION_POSITION_STEP,
  ThreadSectionError,
  type ThreadSection,
  type ThreadSectionAppearance,
  type ThreadSectionMembership,
  type ThreadSectionMove,
  type ThreadSectionStore,
} from '@skein/rollout';
import type { Queryable } from '../database.js';
import { atomically, integer, threadKey } from './side-store-queries.js';

interface SectionRow {
  id: string;
  name: string;
  appearance_set: boolean;
  icon: string | null;
  color: string | null;
}

interface MemberRow {
  thread_id: string;
  section_id: string;
  position: string;
  entered_ms: string;
}

const SECTION_COLUMNS = 'id, name, appearance_set, icon, color';
const MEMBER_COLUMNS = 'thread_id, section_id, position, entered_ms';

/** The sections of a PostgreSQL thread store and the threads filed in them. */
export class PostgresThreadSections implements ThreadSectionStore {
  constructor(private readonly db: Queryable | pg.Pool) {}

  // Queries go to the pool or the caller's client alike; only `atomically` tells them apart (a pool gets a transaction).
  get #sql(): Queryable {
    return this.db;
  }

  async list(options: { readonly afterId?: string | undefined; readonly limit: number }): Promise<{ readonly sections: ThreadSection[]; readonly more: boolean }> {
    const { rows } = await this.#sql.query<SectionRow>(`SELECT ${SECTION_COLUMNS} FROM skein_thread_sections WHERE id > $1 ORDER BY id LIMIT $2`, [options.afterId ?? '', options.limit + 1]);
    return { sections: rows.slice(0, options.limit).map(sectionOf), more: rows.length > options.limit };
  }

  get(sectionId: string): Promise<ThreadSection | undefined> {
    return readSection(this.db, sectionId, false);
  }

  async create(section: ThreadSection): Promise<ThreadSection> {
    await this.#sql.query(`INSERT INTO skein_thread_sections (${SECTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, rowValues(section));
    return section;
  }

  update(sectionId: string, name: string, appearance: ThreadSectionAppearance | null | undefined): Promise<ThreadSection> {
    return atomically(this.db, async (client) => {
      const current = await requireSection(client, sectionId);
      if (current.id === PINNED_SECTION_ID) throw new ThreadSectionError('BuiltInSection', 'the built-in section cannot be renamed');
      const next: ThreadSection = { id: current.id, name, appearance: appearance === undefined ? current.appearance : appearance };
      await client.query('UPDATE skein_thread_sections SET name = $2, appearance_set = $3, icon = $4, color = $5 WHERE id = $1', rowValues(next));
      return next;
    });
  }

  delete(sectionId: string): Promise<void> {
    return atomically(this.db, async (client) => {
      const current = await requireSection(client, sectionId);
      if (current.id === PINNED_SECTION_ID) throw new ThreadSectionError('BuiltInSection', 'the built-in section cannot be deleted');
      await client.query('DELETE FROM skein_thread_section_members WHERE section_id = $1', [sectionId]);
      await client.query('DELETE FROM skein_thread_sections WHERE id = $1', [sectionId]);
    });
  }

  move(move: ThreadSectionMove): Promise<ThreadSectionMembership | undefined> {
    const threadId = threadKey(move.threadId);
    const before = move.beforeThreadId === undefined || move.beforeThreadId === null ? undefined : threadKey(move.beforeThreadId);
    return atomically(this.db, async (client): Promise<ThreadSectionMembership | undefined> => {
      if (move.sectionId === null) {
        await removeMember(client, threadId);
        return undefined;
      }
      const sectionId = (await requireSection(client, move.sectionId)).id;
      if (before === threadId) throw new ThreadSectionError('MovedBeforeItself', `thread ${threadId} cannot be moved before itself`);
      const current = await readMembership(client, threadId);
      let position: number;
      if (before === undefined) {
        position = (await lastPosition(client, sectionId, threadId)) + SECTION_POSITION_STEP;
      } else {
        const anchor = await readMembership(client, before);
        if (anchor === undefined || anchor.sectionId !== sectionId) throw new ThreadSectionError('BeforeThreadNotInSection', `thread ${before} is not in section ${sectionId}`);
        position = await positionBefore(client, sectionId, threadId, anchor);
      }
      const enteredAtMs = current !== undefined && current.sectionId === sectionId ? current.enteredAtMs : move.nowMs;
      await client.query(
        `INSERT INTO skein_thread_section_members (${MEMBER_COLUMNS}) VALUES ($1, $2, $3, $4)
         ON CONFLICT (thread_id) DO UPDATE SET section_id = excluded.section_id, position = excluded.position, entered_ms = excluded.entered_ms`,
        [threadId, sectionId, position, enteredAtMs],
      );
      return { threadId, sectionId, position, enteredAtMs };
    });
  }

  membership(threadId: string): Promise<ThreadSectionMembership | undefined> {
    return readMembership(this.db, threadKey(threadId));
  }

  async sectionOf(threadId: string): Promise<{ readonly section: ThreadSection; readonly enteredAtMs: number } | undefined> {
    const { rows } = await this.#sql.query<SectionRow & { entered_ms: string }>(
      `SELECT s.id, s.name, s.appearance_set, s.icon, s.color, m.entered_ms
       FROM skein_thread_section_members m JOIN skein_thread_sections s ON s.id = m.section_id WHERE m.thread_id = $1`,
      [threadKey(threadId)],
    );
    const row = rows[0];
    return row === undefined ? undefined : { section: sectionOf(row), enteredAtMs: integer(row.entered_ms) };
  }

  members(sectionId: string): Promise<ThreadSectionMembership[]> {
    return readMembers(this.db, sectionId);
  }

  removeThread(threadId: string): Promise<void> {
    return removeMember(this.db, threadKey(threadId));
  }
}

async function readSection(db: Queryable, sectionId: string, lock: boolean): Promise<ThreadSection | undefined> {
  const { rows } = await db.query<SectionRow>(`SELECT ${SECTION_COLUMNS} FROM skein_thread_sections WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [sectionId]);
  return rows[0] === undefined ? undefined : sectionOf(rows[0]);
}

/** The section, locked until the transaction ends; `SectionNotFound` when there is none. */
async function requireSection(client: Queryable, sectionId: string): Promise<ThreadSection> {
  const section = await readSection(client, sectionId, true);
  if (section === undefined) throw new ThreadSectionError('SectionNotFound', `section ${sectionId} does not exist`);
  return section;
}

async function readMembership(db: Queryable, threadId: string): Promise<ThreadSectionMembership | undefined> {
  const { rows } = await db.query<MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM skein_thread_section_members WHERE thread_id = $1`, [threadId]);
  return rows[0] === undefined ? undefined : membershipOf(rows[0]);
}

async function readMembers(db: Queryable, sectionId: string): Promise<ThreadSectionMembership[]> {
  const { rows } = await db.query<MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM skein_thread_section_members WHERE section_id = $1 ORDER BY position, thread_id`, [sectionId]);
  return rows.map(membershipOf);
}

async function removeMember(db: Queryable, threadId: string): Promise<void> {
  await db.query('DELETE FROM skein_thread_section_members WHERE thread_id = $1', [threadId]);
}

/** The largest position in the section, leaving out `except` (0 when it has no other thread). */
async function lastPosition(client: Queryable, sectionId: string, except: string): Promise<number> {
  const { rows } = await client.query<{ last: string | null }>('SELECT max(position) AS last FROM skein_thread_section_members WHERE section_id = $1 AND thread_id <> $2', [sectionId, except]);
  return rows[0]?.last == null ? 0 : integer(rows[0].last);
}

/** A free position between `anchor` and the thread before it (not counting `moving`), renumbering the section when there is no gap. */
async function positionBefore(client: Queryable, sectionId: string, moving: string, anchor: ThreadSectionMembership): Promise<number> {
  const { rows } = await client.query<{ previous: string | null }>(
    'SELECT max(position) AS previous FROM skein_thread_section_members WHERE section_id = $1 AND thread_id <> $2 AND position < $3',
    [sectionId, moving, anchor.position],
  );
  const low = rows[0]?.previous == null ? 0 : integer(rows[0].previous);
  if (anchor.position - low >= 2) return Math.floor((low + anchor.position) / 2);
  // No room: spread the others out again (the moving thread's own place is about to change).
  const others = (await readMembers(client, sectionId)).filter((member) => member.threadId !== moving);
  await client.query(
    `UPDATE skein_thread_section_members AS member SET position = placed.place * $2 FROM unnest($1::text[]) WITH ORDINALITY AS placed (thread_id, place)
     WHERE member.thread_id = placed.thread_id`,
    [others.map((member) => member.threadId), SECTION_POSITION_STEP],
  );
  const anchorIndex = others.findIndex((member) => member.threadId === anchor.threadId);
  return (anchorIndex + 1) * SECTION_POSITION_STEP - SECTION_POSITION_STEP / 2;
}

function sectionOf(row: SectionRow): ThreadSection {
  return { id: row.id, name: row.name, appearance: row.appearance_set ? { icon: row.icon, color: row.color } : null };
}

function rowValues(section: ThreadSection): unknown[] {
  return [section.id, section.name, section.appearance !== null, section.appearance?.icon ?? null, section.appearance?.color ?? null];
}

function membershipOf(row: MemberRow): ThreadSectionMembership {
  return { threadId: row.thread_id, sectionId: row.section_id, position: integer(row.position), enteredAtMs: integer(row.entered_ms) };
}
