// How late the server's event loop runs its callbacks: the measure of whether one busy thread (or a
// slow client) holds up every other. Sampled by Node's own histogram; `server/diagnostics` reads it.
// The histogram starts at the first reading, so a server that is never asked loads nothing for it
// (its start-up stays free of perf_hooks, which the CLI bundle loads lazily).
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Samples every 10 ms: fine enough for a p99 of a loaded server, cheap enough to leave on. */
const RESOLUTION_MS = 10;

/** The event loop's delay since the last reading. */
export class EventLoopDelay {
  #histogram: IntervalHistogram | undefined;

  /**
   * The p99 and the largest delay (whole microseconds) since the previous reading, which starts a
   * new window; the first reading starts the measurement and answers zeros.
   */
  read(): { readonly p99Us: number; readonly maxUs: number } {
    if (this.#histogram === undefined) {
      this.#histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
      this.#histogram.enable();
      return { p99Us: 0, maxUs: 0 };
    }
    const reading = { p99Us: lateness(this.#histogram.percentile(99)), maxUs: lateness(this.#histogram.max) };
    this.#histogram.reset();
    return reading;
  }

  stop(): void {
    this.#histogram?.disable();
  }
}

/**
 * Node's histogram records each whole interval between its timer's runs, the 10 ms it asked for
 * included (an idle loop reads ≈ 10.2 ms); the delay is what is past that. Codex's gauges are
 * integers: nanoseconds to whole microseconds.
 */
const lateness = (intervalNs: number) => Math.max(0, Math.round(intervalNs / 1000) - RESOLUTION_MS * 1000);
