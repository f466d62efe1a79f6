// Splits a rule's example command into words as a POSIX shell would quote them, with nothing
// expanded: `$HOME`, `*` and `#` stay as written, as Codex's shlex splitting leaves them.

/** The words of `command`; an unterminated quote keeps what was read so far. */
export function splitExample(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let at = 0;
  const append = (text: string): void => {
    word = (word ?? '') + text;
  };
  while (at < command.length) {
    const char = command[at]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      at += 1;
    } else if (char === "'") {
      const end = command.indexOf("'", at + 1);
      append(command.slice(at + 1, end === -1 ? undefined : end));
      at = end === -1 ? command.length : end + 1;
    } else if (char === '"') {
      let text = '';
      at += 1;
      while (at < command.length && command[at] !== '"') {
        // Inside double quotes a backslash escapes only these, as in sh.
        if (command[at] === '\\' && '"\\$`\n'.includes(command[at + 1] ?? '')) at += 1;
        text += command[at];
        at += 1;
      }
      append(text);
      at += 1;
    } else if (char === '\\') {
      append(command[at + 1] ?? '');
      at += 2;
    } else {
      append(char);
      at += 1;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
