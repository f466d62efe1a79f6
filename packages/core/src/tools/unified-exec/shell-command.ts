// How a model's `cmd` becomes a process: the shell with `-lc` (or `-c` without a login shell), and the
// one-line form clients display (`/bin/bash -lc 'echo hi'`), quoted as Codex quotes it (Rust's
// `shlex` 1.3 `try_join`), so a client shows the same line for the same command.

/** The argv that runs `cmd` through `shell`. */
export function shellArgv(shell: string, cmd: string, login: boolean): string[] {
  return [shell, login ? '-lc' : '-c', cmd];
}

// What each way of writing a character allows. Bare: only characters no shell treats specially.
// Single quotes: anything but `'` itself, `\` (fish reads it as an escape) and `^` (bash's history
// substitution can see it; allowed only as a run's first character, right after the quote). Double quotes: anything but
// `$` and `` ` `` (expansions) and `!`, `^` (interactive history). Anything past ASCII is quoted.
const BARE = 1;
const SINGLE = 2;
const DOUBLE = 4;
const BARE_CHARACTER = /^[A-Za-z0-9+\-./:@\]_]$/;

function allowed(character: string): number {
  if (character.charCodeAt(0) >= 0x80) return SINGLE | DOUBLE;
  let ways = BARE_CHARACTER.test(character) ? BARE | SINGLE | DOUBLE : SINGLE | DOUBLE;
  if (character === "'" || character === '\\' || character === '^') ways &= ~SINGLE;
  if (character === '$' || character === '`' || character === '!' || character === '^') ways &= ~DOUBLE;
  return ways;
}

/**
 * One word as a POSIX shell reads it back. The word is cut into the longest runs one way of writing
 * covers, each written the plainest way it allows: bare, else in single quotes, else in double
 * quotes (escaping `"` and `\`). So `it's` is written `"it's"` and `a$'b` is `'a$'"'b"`.
 */
export function quoteShellWord(word: string): string {
  if (word === '') return "''";
  let out = '';
  let index = 0;
  while (index < word.length) {
    let ways = BARE | SINGLE | DOUBLE;
    let end = index;
    if (word[end] === '^') {
      ways = SINGLE;
      end += 1;
    }
    for (; end < word.length; end++) {
      const narrowed = ways & allowed(word[end]!);
      if (narrowed === 0) break;
      ways = narrowed;
    }
    out += written(word.slice(index, end), ways);
    index = end;
  }
  return out;
}

function written(run: string, ways: number): string {
  if (ways & BARE) return run;
  if (ways & SINGLE) return `'${run}'`;
  return `"${run.replace(/["\\]/g, '\\$&')}"`;
}

/** The argv as one display line. */
export function displayCommand(argv: readonly string[]): string {
  return argv.map(quoteShellWord).join(' ');
}
