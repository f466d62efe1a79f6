// A turn's end is announced once its record is kept: the lines that close the turn (`task_complete`,
// `turn_aborted`) are recorded first, and the client hears `turn/completed` only after the recorder
// says they survive this process being killed (a file: written; a database: committed). Events after
// a held end wait behind it, so clients see the same order as before.
import type { CoreEvent } from '../turn/core-event.js';
import type { ThreadRecorder } from './thread-recorder.js';

/** Whether `event` closes a turn in the record. */
function endsTurn(event: CoreEvent): boolean {
  return event.type === 'turnCompleted' || event.type === 'turnFailed' || event.type === 'turnAborted';
}

export class KeptAnnouncements {
  /** Events waiting for the record, oldest first; undefined while nothing waits. */
  #held: CoreEvent[] | undefined;
  #settled: (() => void)[] = [];

  constructor(
    private readonly recorder: ThreadRecorder,
    private readonly deliver: (event: CoreEvent) => void,
  ) {}

  /** Records `event`, and delivers it now or, from a turn's end on, once the record is kept. */
  announce(event: CoreEvent): void {
    this.recorder.recordEvent(event);
    if (this.#held !== undefined) {
      this.#held.push(event);
    } else if (endsTurn(event)) {
      this.#hold([event]);
    } else {
      this.deliver(event);
    }
  }

  /** Resolves once every event announced so far has been delivered. */
  settled(): Promise<void> {
    if (this.#held === undefined) return Promise.resolve();
    return new Promise((resolve) => this.#settled.push(resolve));
  }

  #hold(events: CoreEvent[]): void {
    this.#held = events;
    // A record that cannot be kept now (the turn failed for it) still lets the client hear the end.
    void this.recorder
      .written()
      .catch(() => undefined)
      .then(() => this.#release());
  }

  // Delivers what waited, up to the next turn end recorded after the wait began, which waits again.
  #release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const [index, event] of held.entries()) {
      if (index > 0 && endsTurn(event)) {
        this.#hold(held.slice(index));
        return;
      }
      this.deliver(event);
    }
    for (const resolve of this.#settled.splice(0)) resolve();
  }
}
