import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { displayCommand, quoteShellWord, shellArgv } from './shell-command.js';

describe('shell commands', () => {
  it('wraps cmd in the shell with -lc, or -c without a login shell', () => {
    expect(shellArgv('/bin/bash', 'echo hi', true)).toEqual(['/bin/bash', '-lc', 'echo hi']);
    expect(shellArgv('/bin/zsh', 'ls', false)).toEqual(['/bin/zsh', '-c', 'ls']);
  });

  it('displays as Codex 0.171.0 does: bare where safe, else single quotes, else double quotes', () => {
    expect(displayCommand(['/bin/bash', '-lc', 'echo hi'])).toBe("/bin/bash -lc 'echo hi'");
    expect(displayCommand(['/bin/bash', '-lc', 'cat'])).toBe('/bin/bash -lc cat');
    // Seen from Codex's `codex exec --json` for this command.
    expect(displayCommand(['/bin/bash', '-lc', "sh -c 'echo before; exec 0<&- 1>&- 2>&-; sleep 0.3; exit 3'"])).toBe(
      `/bin/bash -lc "sh -c 'echo before; exec 0<&- 1>&- 2>&-; sleep 0.3; exit 3'"`,
    );
    expect(quoteShellWord('')).toBe("''");
    expect(quoteShellWord("it's")).toBe(`"it's"`);
    expect(quoteShellWord('a=b,c%d')).toBe("'a=b,c%d'");
    // A backslash rules out single quotes.
    expect(quoteShellWord('say "hi" \\ now')).toBe('"say \\"hi\\" \\\\ now"');
  });

  it('cuts a word no single way of quoting covers into runs', () => {
    expect(quoteShellWord("a$'b")).toBe(`'a$'"'b"`);
    expect(quoteShellWord('echo $HOME\\n')).toBe(`'echo $HOME'"\\\\n"`);
    expect(quoteShellWord('^foo')).toBe("'^foo'");
    expect(quoteShellWord('a^b')).toBe("a'^b'");
    expect(quoteShellWord('héllo')).toBe("'héllo'");
  });

  it('quotes so that a POSIX shell reads back each word as it was', () => {
    const words = ['', "it's", 'a b', "a$'b", '`x` $(y) "z"', 'back\\slash', '^caret^', 'bang!', 'tab\there', 'new\nline', 'ünï', "'", '"', '\\'];
    const echoed = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${words.map(quoteShellWord).join(' ')}`], { encoding: 'utf8' });
    expect(echoed.split('\0').slice(0, -1)).toEqual(words);
  });
});
