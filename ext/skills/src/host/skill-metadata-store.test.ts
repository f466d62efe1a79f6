import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSkillFile } from '../skill-file.js';
import { MAX_STORED_SKILLS, SkillMetadataStore } from './skill-metadata-store.js';

const skill = (name: string) => `---\nname: ${name}\ndescription: Does ${name} things.\n---\nBody of ${name}.\n`;

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skill-metadata-'));
  file = path.join(dir, 'cache', 'skein-skill-metadata.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const stored = (): { revision: number; entries: Record<string, { name: string }> } => JSON.parse(readFileSync(file, 'utf8')) as never;

describe('SkillMetadataStore', () => {
  it('answers as parseSkillFile does, and keeps what it parsed for the next process', async () => {
    const first = new SkillMetadataStore(file);
    const yaml = 'interface:\n  display_name: Alpha\npolicy:\n  allow_implicit_invocation: false\n';
    expect(await first.metadata(skill('alpha'), yaml)).toEqual(await parseSkillFile(skill('alpha'), yaml));
    await first.save();
    const [key] = Object.keys(stored().entries);
    expect(stored().entries[key!]).toMatchObject({ name: 'alpha', hidden: true, interface: { displayName: 'Alpha' } });

    // A later process reads the entry instead of parsing: an entry edited on disk is what it gets.
    writeFileSync(file, JSON.stringify({ revision: stored().revision, entries: { [key!]: { ...stored().entries[key!], description: 'from the store' } } }));
    expect(await new SkillMetadataStore(file).metadata(skill('alpha'), yaml)).toMatchObject({ name: 'alpha', description: 'from the store' });
    // The same SKILL.md without its openai.yaml is another file.
    expect(await new SkillMetadataStore(file).metadata(skill('alpha'), undefined)).toMatchObject({ description: 'Does alpha things.', hidden: false });
  });

  it('parses again when the file is garbage, of another revision, or of the wrong shape', async () => {
    mkdirSync(path.dirname(file), { recursive: true });
    for (const text of ['not json', JSON.stringify({ revision: 999, entries: {} }), JSON.stringify({ revision: 1, entries: { x: { name: 1 } } })]) {
      writeFileSync(file, text);
      expect(await new SkillMetadataStore(file).metadata(skill('beta'), undefined)).toMatchObject({ name: 'beta' });
    }
  });

  it('still throws for a malformed skill, and stores nothing for it', async () => {
    const store = new SkillMetadataStore(file);
    await expect(store.metadata('no front matter', undefined)).rejects.toThrow('missing YAML front matter');
    await store.save();
    expect(existsSync(file)).toBe(false);
  });

  it(`keeps at most ${MAX_STORED_SKILLS} entries, the last scan's first`, async () => {
    const old = new SkillMetadataStore(file);
    for (let index = 0; index < MAX_STORED_SKILLS; index += 1) await old.metadata(skill(`old${index}`), undefined);
    await old.save();
    const next = new SkillMetadataStore(file);
    await next.metadata(skill('fresh'), undefined);
    await next.save();
    const names = Object.values(stored().entries).map((entry) => entry.name);
    expect(names).toHaveLength(MAX_STORED_SKILLS);
    expect(names[0]).toBe('fresh');
  });

  it('shrugs off a home it cannot write to, and leaves nothing behind', async () => {
    // A file where the cache folder should be: even root cannot make the folder.
    writeFileSync(path.dirname(file), 'in the way');
    const store = new SkillMetadataStore(file);
    expect(await store.metadata(skill('gamma'), undefined)).toMatchObject({ name: 'gamma' });
    await expect(store.save()).resolves.toBeUndefined();
    expect(readdirSync(dir)).toEqual(['cache']);
  });

  it('writes nothing when every skill came from the store', async () => {
    const first = new SkillMetadataStore(file);
    await first.metadata(skill('delta'), undefined);
    await first.save();
    rmSync(file);
    const second = new SkillMetadataStore(file);
    await second.metadata(skill('delta'), undefined);
    await second.save();
    // Parsed again (the file was gone), so written again.
    expect(existsSync(file)).toBe(true);
    const third = new SkillMetadataStore(file);
    await third.metadata(skill('delta'), undefined);
    rmSync(file);
    await third.save();
    expect(existsSync(file)).toBe(false);
  });
});
