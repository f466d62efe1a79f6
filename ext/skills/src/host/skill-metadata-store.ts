// What each host SKILL.md said, kept across processes by the hash of its text (and of its
// agents/openai.yaml): a file read before is not parsed again, so a host that starts (`skein exec`,
// once per turn of the SDK) does not load the YAML parser for skills it has seen (issue #18). A
// missing, unreadable or stale file is an empty store; a write is atomic, and a failed one is ignored.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import type { SkillMetadata } from '../skill.js';
import { parseSkillFile } from '../skill-file.js';

/** Entries kept: the skills of the last scan first, then earlier ones up to this many. */
export const MAX_STORED_SKILLS = 512;

// Bump when parseSkillFile reads a file differently: entries of another revision are not used.
const PARSER_REVISION = 1;

const StoredMetadata = z.object({
  name: z.string(),
  description: z.string(),
  shortDescription: z.string().optional(),
  interface: z.record(z.string(), z.unknown()).optional(),
  dependencies: z.object({ tools: z.array(z.record(z.string(), z.unknown())) }).optional(),
  hidden: z.boolean(),
});

const StoreFile = z.object({ revision: z.literal(PARSER_REVISION), entries: z.record(z.string(), StoredMetadata) });

/** Parsed skill files by content hash, backed by one JSON file. */
export class SkillMetadataStore {
  readonly #file: string;
  #stored: Promise<Map<string, SkillMetadata>> | undefined;
  readonly #used = new Map<string, SkillMetadata>();
  #changed = false;

  constructor(file: string) {
    this.#file = file;
  }

  /** The metadata of a SKILL.md text, from the store when this text was parsed before; throws as parseSkillFile does. */
  async metadata(text: string, openAiYaml: string | undefined): Promise<SkillMetadata> {
    const key = createHash('sha256').update(text).update(openAiYaml === undefined ? '\u0001' : `\u0000${openAiYaml}`).digest('hex');
    const known = this.#used.get(key) ?? (await this.#load()).get(key);
    if (known !== undefined) {
      this.#used.set(key, known);
      return known;
    }
    const parsed = await parseSkillFile(text, openAiYaml);
    this.#used.set(key, parsed);
    this.#changed = true;
    return parsed;
  }

  /** Writes the store when a file was parsed since the last write. */
  async save(): Promise<void> {
    if (!this.#changed) return;
    this.#changed = false;
    const entries = new Map(this.#used);
    for (const [key, value] of await this.#load()) {
      if (entries.size >= MAX_STORED_SKILLS) break;
      if (!entries.has(key)) entries.set(key, value);
    }
    const text = JSON.stringify({ revision: PARSER_REVISION, entries: Object.fromEntries([...entries].slice(0, MAX_STORED_SKILLS)) });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    try {
      await mkdir(path.dirname(this.#file), { recursive: true });
      await writeFile(temporary, text);
      await rename(temporary, this.#file);
    } catch {
      // A cache: a read-only home parses again next time.
      await unlink(temporary).catch(() => undefined);
    }
  }

  #load(): Promise<Map<string, SkillMetadata>> {
    this.#stored ??= readFile(this.#file, 'utf8').then(
      (text) => {
        try {
          const parsed = StoreFile.safeParse(JSON.parse(text));
          return new Map(parsed.success ? Object.entries(parsed.data.entries) : []);
        } catch {
          return new Map();
        }
      },
      () => new Map(),
    );
    return this.#stored;
  }
}
