// A loaded thread's status as clients see it: idle, or active with the flags of what its turn waits
// on (an approval, the user's input); announced only when it changed since the last announcement.
import type { WireObject } from '@skein/core';
import type { ActiveFlag } from './thread-questions.js';

export class ThreadStatus {
  #flags: ActiveFlag[] = [];
  #announced = '';

  constructor(
    private readonly running: () => boolean,
    private readonly announce: (status: WireObject) => void,
  ) {}

  /** `{type: idle}` or `{type: active, activeFlags}`. */
  current(): WireObject {
    return this.running() ? { type: 'active', activeFlags: [...this.#flags] } : { type: 'idle' };
  }

  /** A turn began or ended: it waits on nothing yet. */
  clearFlags(): void {
    this.#flags = [];
  }

  /** Raises or lowers a flag of the running turn, and announces the change. */
  setFlag(flag: ActiveFlag, on: boolean): void {
    if (!this.running()) return;
    this.#flags = on ? [...this.#flags.filter((entry) => entry !== flag), flag] : this.#flags.filter((entry) => entry !== flag);
    this.announceIfChanged();
  }

  announceIfChanged(): void {
    const status = this.current();
    const key = JSON.stringify(status);
    if (key === this.#announced) return;
    this.#announced = key;
    this.announce(status);
  }
}
