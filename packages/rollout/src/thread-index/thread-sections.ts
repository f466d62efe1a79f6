// Thread sections: named groups a client files threads into (`threadSection/*`, `thread/section/move`),
// each thread in at most one, ordered by a position inside it. Kept in the index database beside the
// read receipts and, like them, never rebuilt from the files (Codex keeps these in `state_5.sqlite`).
import type Database from 'better-sqlite3';
import { prepared } from './prepared-statement.js';
import { settle } from './settle.js';

/** The built-in section every home has: listed first, never renamed or deleted (Codex's id). */
export const PINNED_SECTION_ID = '01984de2-8f74-7c91-a3b2-5c5e937cf318';
/** The built-in section's name. */
export const PINNED_SECTION_NAME = 'Pinned';

/** The gap between neighbours a move leaves, so most moves between two threads renumber nothing. */
export const SECTION_POSITION_STEP = 1_000_000;

/** How a client shows a section; a null field is unset. */
export interface ThreadSectionAppearance {
  readonly icon: string | null;
  readonly color: string | null;
}

/** A section. */
export interface ThreadSection {
  readonly id: string;
  readonly name: string;
  readonly appearance: ThreadSectionAppearance | null;
}

/** Where a thread is filed: its section, its place there (smaller first) and when it entered it. */
export interface ThreadSectionMembership {
  readonly threadId: string;
  readonly sectionId: string;
  readonly position: number;
  readonly enteredAtMs: number;
}

/** Why a section change was refused; `code` is stable for callers. */
export class ThreadSectionError extends Error {
  override readonly name = 'ThreadSectionError';
  constructor(
    readonly code: 'SectionNotFound' | 'BuiltInSection' | 'BeforeThreadNotInSection' | 'MovedBeforeItself',
    message: string,
  ) {
    super(message);
  }
}

/** A move: into `sectionId` (null: out of any section), before `beforeThreadId` or last. */
export interface ThreadSectionMove {
  readonly threadId: string;
  readonly sectionId: string | null;
  readonly beforeThreadId?: string | null | undefined;
  /** When the move happens (a thread that changes section entered it now). */
  readonly nowMs: number;
}

/** The sections clients file threads into, kept beside the threads (SQLite here; PostgreSQL in `@skein/thread-store-postgres`). */
export interface ThreadSectionStore {
  /** Sections in id order (the built-in one first: its id is older than any made since), after `afterId`. */
  list(options: { readonly afterId?: string | undefined; readonly limit: number }): Promise<{ readonly sections: ThreadSection[]; readonly more: boolean }>;
  /** A section by id. */
  get(sectionId: string): Promise<ThreadSection | undefined>;
  /** Stores a new section. */
  create(section: ThreadSection): Promise<ThreadSection>;
  /** Renames a section and, unless `appearance` is undefined, replaces its appearance. Throws `SectionNotFound` / `BuiltInSection`. */
  update(sectionId: string, name: string, appearance: ThreadSectionAppearance | null | undefined): Promise<ThreadSection>;
  /** Deletes a section; the threads in it are then in none. Throws `SectionNotFound` / `BuiltInSection`. */
  delete(sectionId: string): Promise<void>;
  /**
   * Files a thread: last in its section, or just before `beforeThreadId` (which must be in it). A
   * thread that stays in its section keeps its `enteredAtMs`. Throws `SectionNotFound`,
   * `BeforeThreadNotInSection` or `MovedBeforeItself`. Undefined when moved out of any section.
   */
  move(move: ThreadSectionMove): Promise<ThreadSectionMembership | undefined>;
  /** Where a thread is filed, if anywhere. */
  membership(threadId: string): Promise<ThreadSectionMembership | undefined>;
  /** The section a thread is filed in, with when it entered it. */
  sectionOf(threadId: string): Promise<{ readonly section: ThreadSection; readonly enteredAtMs: number } | undefined>;
  /** The threads filed in a section, by position. */
  members(sectionId: string): Promise<ThreadSectionMembership[]>;
  /** Takes a thread out of its section (it was moved out, or deleted). */
  removeThread(threadId: string): Promise<void>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS thread_sections (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  appearance_set INTEGER NOT NULL,
  icon TEXT,
  color TEXT
);
CREATE TABLE IF NOT EXISTS thread_section_members (
  thread_id TEXT PRIMARY KEY,
  section_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  entered_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS thread_section_members_by_position ON thread_section_members (section_id, position, thread_id);
INSERT OR IGNORE INTO thread_sections (id, name, appearance_set) VALUES ('${PINNED_SECTION_ID}', '${PINNED_SECTION_NAME}', 0);
`;

interface SectionRow {
  id: string;
  name: string;
  appearance_set: number;
  icon: string | null;
  color: string | null;
}

interface MemberRow {
  thread_id: string;
  section_id: string;
  position: number;
  entered_ms: number;
}

/** The sections of one index database and the threads filed in them. */
export class ThreadSections implements ThreadSectionStore {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /** Sections in id order (the built-in one first: its id is older than any made since), after `afterId`. */
  list(options: { readonly afterId?: string | undefined; readonly limit: number }): Promise<{ readonly sections: ThreadSection[]; readonly more: boolean }> {
    return settle(() => {
      const rows = prepared(this.db, 'SELECT * FROM thread_sections WHERE id > @after ORDER BY id LIMIT @limit')
        .all({ after: options.afterId ?? '', limit: options.limit + 1 }) as SectionRow[];
      return { sections: rows.slice(0, options.limit).map(sectionOf), more: rows.length > options.limit };
    });
  }

  /** A section by id. */
  get(sectionId: string): Promise<ThreadSection | undefined> {
    return settle(() => this.#get(sectionId));
  }

  #get(sectionId: string): ThreadSection | undefined {
    const row = prepared(this.db, 'SELECT * FROM thread_sections WHERE id = ?').get(sectionId) as SectionRow | undefined;
    return row === undefined ? undefined : sectionOf(row);
  }

  /** Stores a new section. */
  create(section: ThreadSection): Promise<ThreadSection> {
    return settle(() => {
      prepared(this.db, 'INSERT INTO thread_sections (id, name, appearance_set, icon, color) VALUES (@id, @name, @appearance_set, @icon, @color)').run(rowOf(section));
      return section;
    });
  }

  /** Renames a section and, unless `appearance` is undefined, replaces its appearance. Throws `SectionNotFound` / `BuiltInSection`. */
  update(sectionId: string, name: string, appearance: ThreadSectionAppearance | null | undefined): Promise<ThreadSection> {
    return settle(() =>
      this.db
        .transaction(() => {
          const current = this.#require(sectionId);
          if (current.id === PINNED_SECTION_ID) throw new ThreadSectionError('BuiltInSection', 'the built-in section cannot be renamed');
          const next: ThreadSection = { id: current.id, name, appearance: appearance === undefined ? current.appearance : appearance };
          prepared(this.db, 'UPDATE thread_sections SET name = @name, appearance_set = @appearance_set, icon = @icon, color = @color WHERE id = @id').run(rowOf(next));
          return next;
        })
        .immediate(),
    );
  }

  /** Deletes a section; the threads in it are then in none. Throws `SectionNotFound` / `BuiltInSection`. */
  delete(sectionId: string): Promise<void> {
    return settle(() =>
      this.db
        .transaction(() => {
          const current = this.#require(sectionId);
          if (current.id === PINNED_SECTION_ID) throw new ThreadSectionError('BuiltInSection', 'the built-in section cannot be deleted');
          prepared(this.db, 'DELETE FROM thread_section_members WHERE section_id = ?').run(sectionId);
          prepared(this.db, 'DELETE FROM thread_sections WHERE id = ?').run(sectionId);
        })
        .immediate(),
    );
  }

  /**
   * Files a thread: last in its section, or just before `beforeThreadId` (which must be in it). A
   * thread that stays in its section keeps its `enteredAtMs`. Throws `SectionNotFound`,
   * `BeforeThreadNotInSection` or `MovedBeforeItself`.
   */
  move(move: ThreadSectionMove): Promise<ThreadSectionMembership | undefined> {
    const threadId = move.threadId.toLowerCase();
    const before = move.beforeThreadId === undefined || move.beforeThreadId === null ? undefined : move.beforeThreadId.toLowerCase();
    return settle(() =>
      this.db
        .transaction((): ThreadSectionMembership | undefined => {
          if (move.sectionId === null) {
            this.#removeThread(threadId);
            return undefined;
          }
          const sectionId = this.#require(move.sectionId).id;
          if (before === threadId) throw new ThreadSectionError('MovedBeforeItself', `thread ${threadId} cannot be moved before itself`);
          const current = this.#membership(threadId);
          let position: number;
          if (before === undefined) {
            position = this.#lastPosition(sectionId, threadId) + SECTION_POSITION_STEP;
          } else {
            const anchor = this.#membership(before);
            if (anchor === undefined || anchor.sectionId !== sectionId) throw new ThreadSectionError('BeforeThreadNotInSection', `thread ${before} is not in section ${sectionId}`);
            position = this.#positionBefore(sectionId, threadId, anchor);
          }
          const enteredAtMs = current !== undefined && current.sectionId === sectionId ? current.enteredAtMs : move.nowMs;
          const membership: ThreadSectionMembership = { threadId, sectionId, position, enteredAtMs };
          prepared(this.db, 
              `INSERT INTO thread_section_members (thread_id, section_id, position, entered_ms) VALUES (@thread_id, @section_id, @position, @entered_ms)
               ON CONFLICT(thread_id) DO UPDATE SET section_id = excluded.section_id, position = excluded.position, entered_ms = excluded.entered_ms`,
            )
            .run({ thread_id: threadId, section_id: sectionId, position, entered_ms: enteredAtMs });
          return membership;
        })
        .immediate(),
    );
  }

  /** Where a thread is filed, if anywhere. */
  membership(threadId: string): Promise<ThreadSectionMembership | undefined> {
    return settle(() => this.#membership(threadId));
  }

  #membership(threadId: string): ThreadSectionMembership | undefined {
    const row = prepared(this.db, 'SELECT * FROM thread_section_members WHERE thread_id = ?').get(threadId.toLowerCase()) as MemberRow | undefined;
    return row === undefined ? undefined : membershipOf(row);
  }

  /** The section a thread is filed in, with when it entered it. */
  sectionOf(threadId: string): Promise<{ readonly section: ThreadSection; readonly enteredAtMs: number } | undefined> {
    return settle(() => {
      const membership = this.#membership(threadId);
      const section = membership === undefined ? undefined : this.#get(membership.sectionId);
      return membership === undefined || section === undefined ? undefined : { section, enteredAtMs: membership.enteredAtMs };
    });
  }

  /** The threads filed in a section, by position. */
  members(sectionId: string): Promise<ThreadSectionMembership[]> {
    return settle(() => this.#members(sectionId));
  }

  #members(sectionId: string): ThreadSectionMembership[] {
    return (prepared(this.db, 'SELECT * FROM thread_section_members WHERE section_id = ? ORDER BY position, thread_id').all(sectionId) as MemberRow[]).map(membershipOf);
  }

  /** Takes a thread out of its section (it was moved out, or deleted). */
  removeThread(threadId: string): Promise<void> {
    return settle(() => this.#removeThread(threadId));
  }

  #removeThread(threadId: string): void {
    prepared(this.db, 'DELETE FROM thread_section_members WHERE thread_id = ?').run(threadId.toLowerCase());
  }

  #require(sectionId: string): ThreadSection {
    const section = this.#get(sectionId);
    if (section === undefined) throw new ThreadSectionError('SectionNotFound', `section ${sectionId} does not exist`);
    return section;
  }

  /** The largest position in the section, leaving out `except` (0 when it has no other thread). */
  #lastPosition(sectionId: string, except: string): number {
    const row = prepared(this.db, 'SELECT max(position) AS last FROM thread_section_members WHERE section_id = ? AND thread_id != ?').get(sectionId, except) as { last: number | null };
    return row.last ?? 0;
  }

  /** A free position between `anchor` and the thread before it (not counting `moving`), renumbering the section when there is no gap. */
  #positionBefore(sectionId: string, moving: string, anchor: ThreadSectionMembership): number {
    const previous = prepared(this.db, 'SELECT max(position) AS previous FROM thread_section_members WHERE section_id = ? AND thread_id != ? AND position < ?')
      .get(sectionId, moving, anchor.position) as { previous: number | null };
    const low = previous.previous ?? 0;
    if (anchor.position - low >= 2) return Math.floor((low + anchor.position) / 2);
    // No room: spread the others out again (the moving thread's own place is about to change).
    const others = this.#members(sectionId).filter((member) => member.threadId !== moving);
    const renumber = prepared(this.db, 'UPDATE thread_section_members SET position = ? WHERE thread_id = ?');
    let anchorPosition = anchor.position;
    others.forEach((member, index) => {
      const position = (index + 1) * SECTION_POSITION_STEP;
      renumber.run(position, member.threadId);
      if (member.threadId === anchor.threadId) anchorPosition = position;
    });
    return anchorPosition - SECTION_POSITION_STEP / 2;
  }
}

function sectionOf(row: SectionRow): ThreadSection {
  return { id: row.id, name: row.name, appearance: row.appearance_set === 1 ? { icon: row.icon, color: row.color } : null };
}

function rowOf(section: ThreadSection): SectionRow {
  return { id: section.id, name: section.name, appearance_set: section.appearance === null ? 0 : 1, icon: section.appearance?.icon ?? null, color: section.appearance?.color ?? null };
}

function membershipOf(row: MemberRow): ThreadSectionMembership {
  return { threadId: row.thread_id, sectionId: row.section_id, position: row.position, enteredAtMs: row.entered_ms };
}
