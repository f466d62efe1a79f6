import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, fitItems, fitText, MAX_RESULT_BYTES } from '../src/tools/bounded-json.js';
import { checkedResource, ResourceUriError } from '../src/tools/resource-uri.js';

describe('checkedResource', () => {
  const pkg = 'skill://cap/srv/root/skills/one';
  const packages = [pkg, 'skill://cap/srv/root/skills/one/nested', 'skill://cap/srv/root'];

  it('defaults to the main resource and accepts canonical children', () => {
    expect(checkedResource(pkg, `${pkg}/SKILL.md`, undefined, packages)).toBe(`${pkg}/SKILL.md`);
    expect(checkedResource(pkg, `${pkg}/SKILL.md`, `${pkg}/references/notes.md`, packages)).toBe(`${pkg}/references/notes.md`);
  });

  it.each([
    ['another package', 'skill://cap/srv/root/skills/two/SKILL.md'],
    ['a package nested inside', `${pkg}/nested/SKILL.md`],
    ['a parent through ..', `${pkg}/../two/SKILL.md`],
    ['a . segment', `${pkg}/./SKILL.md`],
    ['an empty segment', `${pkg}//SKILL.md`],
    ['a query', `${pkg}/SKILL.md?x=1`],
    ['a fragment', `${pkg}/SKILL.md#top`],
    ['percent escapes', `${pkg}/%2e%2e/SKILL.md`],
    ['a backslash', `${pkg}/a\\..\\b`],
    ['a file path', '/srv/root/skills/one/SKILL.md'],
    ['a prefix look-alike', `${pkg}-evil/SKILL.md`],
  ])('refuses %s', (_what, resource) => {
    expect(() => checkedResource(pkg, `${pkg}/SKILL.md`, resource, packages)).toThrow(ResourceUriError);
  });
});

describe('8 KB results', () => {
  it('pages a list so every page fits, and a cursor round-trips', () => {
    const items = Array.from({ length: 500 }, (_, index) => ({ name: `skill-${index}`, description: 'd'.repeat(100) }));
    let start = 0;
    let pages = 0;
    while (start < items.length) {
      const { result, taken } = fitItems(items.slice(start), (page, more) => ({ skills: page, next_cursor: more ? encodeCursor({ offset: start + page.length }) : null }));
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      expect(taken).toBeGreaterThan(0);
      if (result.next_cursor !== null) expect(decodeCursor(result.next_cursor)).toEqual({ offset: start + taken });
      start += taken;
      pages++;
    }
    expect(pages).toBeGreaterThan(5);
  });

  it('cuts text that escapes heavily without splitting a character', () => {
    const text = '"\n😀'.repeat(5000);
    const { result, taken } = fitText(text, (chunk, more) => ({ contents: chunk, next_cursor: more ? 'x' : null }));
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(result.contents).toBe(text.slice(0, taken));
    expect(result.contents.endsWith('\uD83D')).toBe(false);
  });
});
