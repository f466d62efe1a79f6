// How an extension tells the user something went wrong without failing the turn: the host shows the
// warning as it shows its own (`warning:` on `skein exec`'s stderr, a warning event to clients).

/** The host's warning channel, bound to the extension. */
export interface HostNotices {
  /** Reports `message` once per thread (the host names the extension). */
  warn(message: string): void;
}
