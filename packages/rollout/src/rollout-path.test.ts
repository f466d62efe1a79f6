import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RolloutError } from './rollout-error.js';
import { archivedRolloutPath, liveRolloutPath, parseRolloutFileName, requireRolloutFileName, rolloutFileName } from './rollout-path.js';

const ID = '01a22c4d-ffd3-7ce3-89c0-3f95d4b0798b';

describe('rollout paths', () => {
  it('names a file as Codex does and dates its folder', () => {
    const created = new Date('2026-11-30T11:53:59.036Z');
    expect(rolloutFileName(ID, created)).toBe(`rollout-2026-11-30T11-53-59-${ID}.jsonl`);
    expect(liveRolloutPath('/home', ID, created)).toBe(path.join('/home', 'sessions', '2026', '11', '30', `rollout-2026-11-30T11-53-59-${ID}.jsonl`));
    expect(archivedRolloutPath('/home', 'rollout-x.jsonl')).toBe(path.join('/home', 'archived_sessions', 'rollout-x.jsonl'));
  });

  it('reads the id and creation time back from a name', () => {
    expect(parseRolloutFileName(`rollout-2026-11-30T11-53-59-${ID}.jsonl`)).toEqual({ threadId: ID, createdAt: new Date('2026-11-30T11:53:59.000Z') });
    expect(parseRolloutFileName(`rollout-2026-11-30T11-53-59-${ID.toUpperCase()}.jsonl`)?.threadId).toBe(ID);
  });

  it('refuses names that are not rollouts', () => {
    expect(parseRolloutFileName('rollout-2026-11-30-abc.jsonl')).toBeUndefined();
    expect(parseRolloutFileName(`rollout-2026-13-99T11-53-59-${ID}.jsonl`)).toBeUndefined();
    expect(() => requireRolloutFileName('/x/notes.jsonl')).toThrow(RolloutError);
  });
});
