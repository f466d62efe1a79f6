import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome, uuidV7 } from '../../test/support/builders.js';
import { ThreadIndex } from './thread-index.js';
import { PINNED_SECTION_ID, SECTION_POSITION_STEP, ThreadSectionError, type ThreadSections } from './thread-sections.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
let index: ThreadIndex;
beforeEach(async () => {
  home = await temporaryHome();
  index = ThreadIndex.open(home.home);
});
afterEach(async () => {
  index.close();
  await home.dispose();
});

const [A, B, C, D] = [uuidV7(1), uuidV7(2), uuidV7(3), uuidV7(4)];
const WORK = '01a244fb-81bc-7720-a356-cb15f19863b5';
const PLAY = '01a244fb-81c0-7980-a80d-307b356b3dae';

const order = async (sections: ThreadSections, sectionId: string) => (await sections.members(sectionId)).map((member) => member.threadId);
const refusal = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (error) {
    return error instanceof ThreadSectionError ? error.code : error;
  }
  return undefined;
};

describe('ThreadSections', () => {
  it('has the built-in Pinned section first, then sections by id, paged after an id', async () => {
    const sections = index.threadSections;
    await sections.create({ id: PLAY, name: 'Play', appearance: null });
    await sections.create({ id: WORK, name: 'Work', appearance: { icon: 'star', color: null } });
    expect(await sections.list({ limit: 10 })).toEqual({
      sections: [
        { id: PINNED_SECTION_ID, name: 'Pinned', appearance: null },
        { id: WORK, name: 'Work', appearance: { icon: 'star', color: null } },
        { id: PLAY, name: 'Play', appearance: null },
      ],
      more: false,
    });
    expect(await sections.list({ limit: 1 })).toMatchObject({ sections: [{ id: PINNED_SECTION_ID }], more: true });
    expect(await sections.list({ afterId: WORK, limit: 1 })).toMatchObject({ sections: [{ id: PLAY }], more: false });
  });

  it('appends moved threads, puts one before another, keeps entry time within a section and renumbers when there is no gap', async () => {
    const sections = index.threadSections;
    await sections.create({ id: WORK, name: 'Work', appearance: null });
    await sections.move({ threadId: A, sectionId: WORK, nowMs: 1_000 });
    await sections.move({ threadId: B, sectionId: WORK, nowMs: 2_000 });
    expect((await sections.members(WORK)).map((member) => member.position)).toEqual([SECTION_POSITION_STEP, 2 * SECTION_POSITION_STEP]);
    await sections.move({ threadId: C, sectionId: WORK, beforeThreadId: A, nowMs: 3_000 });
    expect(await order(sections, WORK)).toEqual([C, A, B]);
    expect((await sections.membership(C))?.position).toBe(SECTION_POSITION_STEP / 2);
    // Reordering inside the section keeps when the thread entered it; moving last appends.
    await sections.move({ threadId: A, sectionId: WORK, nowMs: 9_000 });
    expect(await order(sections, WORK)).toEqual([C, B, A]);
    expect((await sections.membership(A))?.enteredAtMs).toBe(1_000);
    // Squeeze until two neighbours touch: the section is renumbered and the order still holds.
    for (let n = 0; n < 25; n += 1) await sections.move({ threadId: n % 2 === 0 ? D : A, sectionId: WORK, beforeThreadId: C, nowMs: 10_000 });
    expect(await order(sections, WORK)).toEqual([A, D, C, B]);
    expect(new Set((await sections.members(WORK)).map((member) => member.position)).size).toBe(4);
  });

  it('refuses an unknown section, a before-thread outside the section, a move before itself, and edits of Pinned', async () => {
    const sections = index.threadSections;
    await sections.create({ id: WORK, name: 'Work', appearance: null });
    await sections.move({ threadId: A, sectionId: PINNED_SECTION_ID, nowMs: 1 });
    expect(await refusal(() => sections.move({ threadId: B, sectionId: 'nope', nowMs: 1 }))).toBe('SectionNotFound');
    expect(await refusal(() => sections.move({ threadId: B, sectionId: WORK, beforeThreadId: A, nowMs: 1 }))).toBe('BeforeThreadNotInSection');
    expect(await refusal(() => sections.move({ threadId: B, sectionId: WORK, beforeThreadId: B, nowMs: 1 }))).toBe('MovedBeforeItself');
    expect(await refusal(() => sections.update(PINNED_SECTION_ID, 'Mine', undefined))).toBe('BuiltInSection');
    expect(await refusal(() => sections.delete(PINNED_SECTION_ID))).toBe('BuiltInSection');
    expect(await refusal(() => sections.update('nope', 'x', undefined))).toBe('SectionNotFound');
    expect(await sections.membership(B)).toBeUndefined();
  });

  it('updates keep or replace the appearance; deleting a section unfiles its threads; moving to null unfiles one', async () => {
    const sections = index.threadSections;
    await sections.create({ id: WORK, name: 'Work', appearance: { icon: 'i', color: 'red' } });
    expect(await sections.update(WORK, 'Play', undefined)).toEqual({ id: WORK, name: 'Play', appearance: { icon: 'i', color: 'red' } });
    expect(await sections.update(WORK, 'Play', null)).toEqual({ id: WORK, name: 'Play', appearance: null });
    await sections.move({ threadId: A, sectionId: WORK, nowMs: 1 });
    await sections.move({ threadId: B, sectionId: WORK, nowMs: 1 });
    await sections.move({ threadId: B, sectionId: null, nowMs: 2 });
    expect(await sections.sectionOf(B)).toBeUndefined();
    expect(await sections.sectionOf(A)).toEqual({ section: { id: WORK, name: 'Play', appearance: null }, enteredAtMs: 1 });
    await sections.delete(WORK);
    expect(await sections.get(WORK)).toBeUndefined();
    expect(await sections.membership(A)).toBeUndefined();
  });

  it('keeps sections and places across a reopen', async () => {
    await index.threadSections.create({ id: WORK, name: 'Work', appearance: { icon: null, color: 'blue' } });
    await index.threadSections.move({ threadId: A, sectionId: WORK, nowMs: 42_000 });
    index.close();
    index = ThreadIndex.open(home.home);
    expect(await index.threadSections.get(WORK)).toEqual({ id: WORK, name: 'Work', appearance: { icon: null, color: 'blue' } });
    expect(await index.threadSections.membership(A)).toEqual({ threadId: A, sectionId: WORK, position: SECTION_POSITION_STEP, enteredAtMs: 42_000 });
    expect((await index.threadSections.list({ limit: 10 })).sections.map((section) => section.id)).toEqual([PINNED_SECTION_ID, WORK]);
  });
});
