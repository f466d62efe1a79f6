// Property and fuzz tests. fast-check is not a dependency of @skein/core, so these use a small
// seeded generator: every run tries the same cases, and a failure prints the seed that found it.
import { describe, expect, it } from 'vitest';
import type { PatchHunk } from './patch.js';
import { parsePatch, PatchParseError } from './parse-patch.js';
import { updatedContents } from './plan-patch.js';

/** mulberry32: tiny, fast and good enough to spread test cases. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  return { next, int, pick, bool: () => next() < 0.5 };
}
type Random = ReturnType<typeof random>;

const RUNS = 500;
const PATH_CHARS = 'abcxyz019._-/';
// Line text may hold anything but a line feed; a trailing CR would be eaten as part of a CRLF.
const TEXT_CHARS = ['a', 'b', ' ', '\t', '*', '@', '+', '-', '#', '\u2014', '\u201C', '\u00A0', 'é', '😀', '\r', '<', 'E', 'O', 'F'];

function path(r: Random): string {
  let text = '';
  for (let i = r.int(1, 12); i > 0; i--) text += r.pick([...PATH_CHARS]);
  return `p${text}`;
}

function text(r: Random, max = 10): string {
  let value = '';
  for (let i = r.int(0, max); i > 0; i--) value += r.pick(TEXT_CHARS);
  return value.endsWith('\r') ? `${value}x` : value;
}

interface Rendered {
  readonly lines: string[];
  readonly hunk: PatchHunk;
}

/** A random hunk and the patch lines that spell it. */
function hunk(r: Random): Rendered {
  const kind = r.pick(['add', 'delete', 'update'] as const);
  const target = path(r);
  if (kind === 'delete') return { lines: [`*** Delete File: ${target}`], hunk: { kind, path: target, line: 0 } };
  if (kind === 'add') {
    const body = Array.from({ length: r.int(0, 4) }, () => text(r));
    return {
      lines: [`*** Add File: ${target}`, ...body.map((line) => `+${line}`)],
      hunk: { kind, path: target, contents: body.map((line) => `${line}\n`).join(''), line: 0 },
    };
  }
  const movePath = r.bool() ? path(r) : undefined;
  const lines = [`*** Update File: ${target}`, ...(movePath === undefined ? [] : [`*** Move to: ${movePath}`])];
  const chunks = Array.from({ length: r.int(1, 3) }, (_, index) => {
    const context = r.bool() ? undefined : text(r);
    const changes = Array.from({ length: r.int(1, 4) }, () => ({ marker: r.pick([' ', '+', '-'] as const), text: text(r) }));
    const endOfFile = r.next() < 0.2;
    const first = changes[0];
    // Only the first change may leave out its @@ line, and then its first line must not look blank.
    const omitMarker = index === 0 && context === undefined && first !== undefined && (first.marker + first.text).trim() !== '' && r.bool();
    if (!omitMarker) lines.push(context === undefined ? '@@' : `@@ ${context}`);
    lines.push(...changes.map((change) => change.marker + change.text));
    if (endOfFile) lines.push('*** End of File');
    return {
      context,
      oldLines: changes.filter((change) => change.marker !== '+').map((change) => change.text),
      newLines: changes.filter((change) => change.marker !== '-').map((change) => change.text),
      endOfFile,
      line: 0,
    };
  });
  return { lines, hunk: { kind, path: target, movePath, chunks, line: 0 } };
}

/** Drops line numbers, which the example tests check; here only the structure matters. */
function shape(hunks: readonly PatchHunk[]): unknown {
  return JSON.parse(JSON.stringify(hunks, (key, value: unknown) => (key === 'line' ? undefined : value)));
}

describe('parsePatch properties', () => {
  it('reads back every patch the grammar can spell', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const r = random(seed);
      const rendered = Array.from({ length: r.int(1, 5) }, () => hunk(r));
      const eol = r.next() < 0.2 ? '\r\n' : '\n';
      const textOf = ['*** Begin Patch', ...rendered.flatMap((item) => item.lines), '*** End Patch', ''].join(eol);
      expect(shape(parsePatch(textOf).hunks), `seed ${seed}`).toEqual(shape(rendered.map((item) => item.hunk)));
    }
  });

  it('either parses or throws PatchParseError for any input, never anything else', () => {
    const tokens = ['*** Begin Patch', '*** End Patch', '*** Add File: ', '*** Delete File: ', '*** Update File: ', '*** Move to: ',
      '*** End of File', '@@', '@@ ', '+', '-', ' ', '\n', '\n', '\r\n', '\r', 'x', '<<EOF', "<<'EOF'", 'EOF', '\u0000', '\uD800', '\u2028', '\uFEFF'];
    const decoder = new TextDecoder();
    for (let seed = 1; seed <= 4 * RUNS; seed++) {
      const r = random(seed);
      let input: string;
      if (seed % 2 === 0) {
        const bytes = Uint8Array.from({ length: r.int(0, 200) }, () => r.int(0, 255));
        input = decoder.decode(bytes);
      } else {
        input = Array.from({ length: r.int(0, 40) }, () => r.pick(tokens)).join('');
      }
      try {
        const patch = parsePatch(input);
        for (const parsed of patch.hunks) {
          expect(parsed.path.length, `seed ${seed}`).toBeGreaterThan(0);
          if (parsed.kind === 'update') expect(parsed.chunks.length, `seed ${seed}`).toBeGreaterThan(0);
        }
      } catch (error) {
        expect(error, `seed ${seed}: ${JSON.stringify(input)}`).toBeInstanceOf(PatchParseError);
        expect((error as PatchParseError).line).toBeGreaterThanOrEqual(1);
      }
    }
  });
});

describe('updatedContents properties', () => {
  it('applies changes with real context to exactly the lines they name', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const r = random(seed);
      // Unique lines, so each change has exactly one place to go.
      const original = Array.from({ length: r.int(1, 40) }, (_, index) => `line ${index} ${text(r, 4)}`);
      const expected: string[] = [];
      const chunks = [];
      let next = 0;
      while (next < original.length) {
        const start = r.int(next, Math.min(original.length - 1, next + 6));
        const removed = r.int(0, Math.min(3, original.length - start));
        const before = original.slice(Math.max(next, start - r.int(0, 3)), start);
        const after = original.slice(start + removed, start + removed + r.int(0, 3));
        const old = [...before, ...original.slice(start, start + removed), ...after];
        if (old.length === 0) break;
        const added = Array.from({ length: r.int(0, 3) }, (_, index) => `new ${seed}.${chunks.length}.${index}`);
        const headerLine = start - before.length - 1;
        const context = headerLine >= next && r.bool() ? original[headerLine] : undefined;
        const end = start + removed + after.length;
        chunks.push({ context, oldLines: old, newLines: [...before, ...added, ...after], endOfFile: end === original.length && r.bool(), line: 0 });
        expected.push(...original.slice(next, start), ...added, ...after);
        next = end;
        if (r.next() < 0.3) break;
      }
      expected.push(...original.slice(next));
      if (chunks.length === 0) continue;
      const result = updatedContents(original.map((line) => `${line}\n`).join(''), chunks, 'f');
      expect(result, `seed ${seed}`).toBe(expected.map((line) => `${line}\n`).join(''));
    }
  });
});
