// A text file as lines with their own line endings, so an update keeps CRLF lines CRLF and LF lines
// LF; inserted lines take the file's first line ending, and every line ends up terminated, as in Codex.

type LineEnding = '\n' | '\r\n';

interface SourceLine {
  readonly text: string;
  readonly ending: LineEnding | undefined;
}

/** `count` lines at `start` replaced by `lines`. */
export interface Replacement {
  readonly start: number;
  readonly count: number;
  readonly lines: readonly string[];
}

/** A file's lines, split for matching and joined back with their original endings. */
export class TextFile {
  private constructor(
    private readonly lines: readonly SourceLine[],
    private readonly preferred: LineEnding,
  ) {}

  /** Splits contents at LF; a CR before the LF belongs to the ending, not the text. */
  static parse(contents: string): TextFile {
    const lines: SourceLine[] = [];
    let preferred: LineEnding | undefined;
    let start = 0;
    for (let newline = contents.indexOf('\n'); newline >= 0; newline = contents.indexOf('\n', start)) {
      const raw = contents.slice(start, newline);
      const crlf = raw.endsWith('\r');
      const ending: LineEnding = crlf ? '\r\n' : '\n';
      preferred ??= ending;
      lines.push({ text: crlf ? raw.slice(0, -1) : raw, ending });
      start = newline + 1;
    }
    if (start < contents.length) lines.push({ text: contents.slice(start), ending: undefined });
    return new TextFile(lines, preferred ?? '\n');
  }

  /** The lines' texts without endings (a final newline does not make an empty last line). */
  texts(): string[] {
    return this.lines.map((line) => line.text);
  }

  /** The contents after `replacements` (sorted by start, not overlapping). */
  replace(replacements: readonly Replacement[]): string {
    const result: SourceLine[] = [];
    let next = 0;
    for (const { start, count, lines } of replacements) {
      result.push(...this.lines.slice(next, start));
      result.push(...lines.map((text) => ({ text, ending: this.preferred })));
      next = start + count;
    }
    result.push(...this.lines.slice(next));
    return result.map((line) => line.text + (line.ending ?? this.preferred)).join('');
  }
}
