import { describe, expect, it } from 'vitest';
import { displayCommand, quoteShellWord, shellArgv } from './shell-command.js';

describe('shell commands', () => {
  it('wraps cmd in the shell with -lc, or -c without a login shell', () => {
    expect(shellArgv('/bin/bash', 'echo hi', true)).toEqual(['/bin/bash', '-lc', 'echo hi']);
    expect(shellArgv('/bin/zsh', 'ls', false)).toEqual(['/bin/zsh', '-c', 'ls']);
  });

  it('displays as Codex does: quotes only where a shell needs them', () => {
    expect(displayCommand(['/bin/bash', '-lc', 'echo hi'])).toBe("/bin/bash -lc 'echo hi'");
    expect(displayCommand(['/bin/bash', '-lc', 'cat'])).toBe('/bin/bash -lc cat');
    expect(quoteShellWord("it's")).toBe(`'it'\\''s'`);
    expect(quoteShellWord('')).toBe("''");
  });
});
