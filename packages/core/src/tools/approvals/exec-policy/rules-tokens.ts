// The tokens of a `.rules` file: names, strings (with Starlark's quoting and escapes) and the
// punctuation rules use. Comments and whitespace are skipped; lines are counted for messages.
import { RulesFileError } from './rules-file-error.js';

/** One token, with the line it starts on. */
export interface RulesToken {
  readonly kind: 'string' | 'name' | 'punct';
  readonly text: string;
  readonly line: number;
}

const PUNCTUATION = '()[],=+';
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };

/** Splits `text` into tokens; throws {@link RulesFileError} naming `origin` and the line. */
export function tokenizeRules(text: string, origin: string): RulesToken[] {
  const tokens: RulesToken[] = [];
  let line = 1;
  let at = 0;
  const fail = (message: string): never => {
    throw new RulesFileError(`${origin}:${line}: ${message}`);
  };
  while (at < text.length) {
    const char = text[at]!;
    if (char === '\n') {
      line += 1;
      at += 1;
    } else if (/\s/.test(char)) {
      at += 1;
    } else if (char === '#') {
      while (at < text.length && text[at] !== '\n') at += 1;
    } else if (PUNCTUATION.includes(char)) {
      tokens.push({ kind: 'punct', text: char, line });
      at += 1;
    } else if (char === '"' || char === "'" || ((char === 'r' || char === 'R') && (text[at + 1] === '"' || text[at + 1] === "'"))) {
      const raw = char === 'r' || char === 'R';
      const start = raw ? at + 1 : at;
      const quote = text[start]!;
      const delimiter = text.startsWith(quote.repeat(3), start) ? quote.repeat(3) : quote;
      const startLine = line;
      let value = '';
      at = start + delimiter.length;
      for (;;) {
        if (at >= text.length) fail('unterminated string');
        if (text.startsWith(delimiter, at)) break;
        const next = text[at]!;
        if (next === '\n') {
          if (delimiter.length === 1) fail('unterminated string (use triple quotes for text over several lines)');
          line += 1;
        }
        if (next !== '\\') {
          value += next;
          at += 1;
          continue;
        }
        if (raw) {
          // A raw string keeps the backslash; an escaped quote still does not end it.
          value += text.slice(at, at + 2);
          at += 2;
          continue;
        }
        const escaped = escapeAt(text, at + 1);
        if (escaped === undefined) fail(`unknown escape \\${text[at + 1] ?? ''}`);
        if (text[at + 1] === '\n') line += 1;
        value += escaped!.text;
        at = escaped!.end;
      }
      at += delimiter.length;
      tokens.push({ kind: 'string', text: value, line: startLine });
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at))?.[0];
      if (name === undefined) fail(`unexpected character ${JSON.stringify(char)}`);
      tokens.push({ kind: 'name', text: name!, line });
      at += name!.length;
    }
  }
  return tokens;
}

/** The escape after a backslash at `at`: its text and where the string goes on; undefined if unknown. */
function escapeAt(text: string, at: number): { text: string; end: number } | undefined {
  const char = text[at];
  if (char === undefined) return undefined;
  if (char === '\n') return { text: '', end: at + 1 };
  const simple = SIMPLE_ESCAPES[char];
  if (simple !== undefined) return { text: simple, end: at + 1 };
  const octal = /^[0-7]{1,3}/.exec(text.slice(at, at + 3))?.[0];
  if (octal !== undefined) return { text: String.fromCodePoint(Number.parseInt(octal, 8)), end: at + octal.length };
  const digits = char === 'x' ? 2 : char === 'u' ? 4 : char === 'U' ? 8 : 0;
  const hex = text.slice(at + 1, at + 1 + digits);
  if (digits === 0 || !new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) return undefined;
  const code = Number.parseInt(hex, 16);
  if (code > 0x10ffff) return undefined;
  return { text: String.fromCodePoint(code), end: at + 1 + digits };
}
