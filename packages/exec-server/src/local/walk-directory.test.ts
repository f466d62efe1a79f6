import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_WALK_RESPONSE_BYTES, WALK_ITEM_OVERHEAD_BYTES } from '../limits.js';
import { walkDirectory } from './walk-directory.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-walk-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const limits = { maxDepth: 64, maxDirectories: 10_000, maxEntries: 50_000, followDirectorySymlinks: false };

describe('walkDirectory', () => {
  it('stops at the response byte budget before the entry bound and says it was truncated', () => {
    const name = (index: number) => `${'n'.repeat(200)}-${String(index).padStart(5, '0')}`;
    const perEntry = `file://${root}/${name(0)}`.length + WALK_ITEM_OVERHEAD_BYTES;
    const fitting = Math.floor(MAX_WALK_RESPONSE_BYTES / perEntry);
    for (let index = 0; index < fitting + 50; index += 1) writeFileSync(path.join(root, name(index)), '');
    return walkDirectory(root, limits).then((outcome) => {
      expect(outcome.truncated).toBe(true);
      expect(outcome.entries).toHaveLength(fitting);
      expect(outcome.entries.at(-1)?.path.basename()).toBe(name(fitting - 1));
    });
  }, 60_000);

  it('prunes hidden directories when asked: listed, not entered', async () => {
    mkdirSync(path.join(root, '.hidden'));
    writeFileSync(path.join(root, '.hidden', 'inside'), '');
    mkdirSync(path.join(root, 'shown'));
    writeFileSync(path.join(root, 'shown', 'inside'), '');
    const outcome = await walkDirectory(root, { ...limits, pruneHiddenDirectories: true });
    expect(outcome.entries.map((entry) => entry.path.toString().slice(`file://${root}/`.length))).toEqual(['.hidden', 'shown', 'shown/inside']);
  });
});
