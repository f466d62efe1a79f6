// The conversation's transcript as it streams: one open segment per speaker (a `transcriptSegment`
// item clients watch grow, recorded as a `frame` when it closes), and the transcript since the last
// handoff, which the next handoff carries to the agent.

/** Who spoke. */
export type TranscriptRole = 'user' | 'assistant';

/** One speaker's turn of the transcript. */
export interface TranscriptEntry {
  readonly role: TranscriptRole;
  readonly text: string;
}

/** A segment being spoken. */
export interface OpenSegment {
  readonly id: string;
  readonly role: TranscriptRole;
  readonly observedAtMs: number;
  text: string;
}

/** What a transcript event did to the segments, for the caller to announce and record. */
export interface SegmentChange {
  /** A segment this event opened (announce it empty, before its text). */
  readonly opened?: OpenSegment;
  /** The segment the text went to, and the text. */
  readonly grew?: { readonly segment: OpenSegment; readonly delta: string };
  /** A segment this event closed. */
  readonly closed?: OpenSegment;
}

/** The most of the transcript a handoff carries: the latest entries, about this many characters. */
const MAX_HANDOFF_TRANSCRIPT_CHARS = 16_000;

/** An entry of the transcript since the last handoff; open while its utterance still streams. */
interface SaidEntry {
  readonly role: TranscriptRole;
  text: string;
  open: boolean;
}

/** The transcript of one realtime session. */
export class RealtimeTranscript {
  readonly #open = new Map<TranscriptRole, OpenSegment>();
  #sinceHandoff: SaidEntry[] = [];

  constructor(
    private readonly newId: () => string,
    private readonly now: () => number,
  ) {}

  /** Text streamed for `role`. */
  delta(role: TranscriptRole, delta: string): SegmentChange {
    const { segment, opened } = this.#segment(role);
    segment.text += delta;
    const entry = this.#openEntry(role);
    if (entry === undefined) this.#said({ role, text: delta, open: true });
    else entry.text += delta;
    return { ...(opened ? { opened: segment } : {}), grew: { segment, delta } };
  }

  /**
   * `role`'s utterance is final with `text`. The open segment closes with what streamed into it (as
   * Codex records it); one that never streamed opens, takes the whole text, and closes. The handoff
   * transcript keeps the final text.
   */
  done(role: TranscriptRole, text: string): SegmentChange {
    const { segment, opened } = this.#segment(role);
    const grew = opened ? { segment, delta: text } : undefined;
    if (opened) segment.text = text;
    this.#open.delete(role);
    const entry = this.#openEntry(role);
    if (entry === undefined) this.#said({ role, text, open: false });
    else {
      entry.text = text;
      entry.open = false;
    }
    return { ...(opened ? { opened: segment } : {}), ...(grew === undefined ? {} : { grew }), closed: segment };
  }

  /** Closes every open segment (the session ends). */
  closeAll(): OpenSegment[] {
    const closed = [...this.#open.values()];
    this.#open.clear();
    return closed;
  }

  /**
   * The transcript since the last handoff, ending with the request being handed off (unless the user
   * just said it), and starts the next stretch.
   */
  takeForHandoff(request: string): TranscriptEntry[] {
    const entries: TranscriptEntry[] = this.#sinceHandoff.map(({ role, text }) => ({ role, text }));
    const last = entries.at(-1);
    if (request !== '' && !(last?.role === 'user' && last.text.trim() === request.trim())) entries.push({ role: 'user', text: request });
    this.#sinceHandoff = [];
    return entries;
  }

  /** The entry of `role` still streaming: a user's transcription often completes after the reply began. */
  #openEntry(role: TranscriptRole): SaidEntry | undefined {
    for (let index = this.#sinceHandoff.length - 1; index >= 0; index--) {
      const entry = this.#sinceHandoff[index]!;
      if (entry.role === role && entry.open) return entry;
    }
    return undefined;
  }

  /** Adds an entry, letting the oldest go once the stretch is longer than a handoff carries. */
  #said(entry: SaidEntry): void {
    this.#sinceHandoff.push(entry);
    let chars = this.#sinceHandoff.reduce((sum, said) => sum + said.text.length, 0);
    while (chars > MAX_HANDOFF_TRANSCRIPT_CHARS && this.#sinceHandoff.length > 1) chars -= this.#sinceHandoff.shift()!.text.length;
  }

  #segment(role: TranscriptRole): { readonly segment: OpenSegment; readonly opened: boolean } {
    const existing = this.#open.get(role);
    if (existing !== undefined) return { segment: existing, opened: false };
    const segment: OpenSegment = { id: this.newId(), role, observedAtMs: this.now(), text: '' };
    this.#open.set(role, segment);
    return { segment, opened: true };
  }
}
