// How a model's `cmd` becomes a process: the shell with `-lc` (or `-c` without a login shell), and the
// one-line form clients display (`/bin/bash -lc 'echo hi'`, quoting only where a shell needs it).

/** The argv that runs `cmd` through `shell`. */
export function shellArgv(shell: string, cmd: string, login: boolean): string[] {
  return [shell, login ? '-lc' : '-c', cmd];
}

// Words made only of these characters read the same to a POSIX shell without quotes.
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word as a POSIX shell reads it back: bare when safe, otherwise single-quoted. */
export function quoteShellWord(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The argv as one display line. */
export function displayCommand(argv: readonly string[]): string {
  return argv.map(quoteShellWord).join(' ');
}
