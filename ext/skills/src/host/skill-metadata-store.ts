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
import { lazySchema } from '@skein/extension-api';

/** Entries kept: the skills of the last scan first, then earlier ones up to this many. */
export const MAX_STORED_SKILLS = 512;

// Bump when parseSkillFile reads a file differently: entries of another revision are not used.
const PARSER_REVISION = 1;

const StoredMetadata = lazySchema(() => z.object({
  name: z.string(),
  description: z.string(),
  shortDescription: z.string().optional(),
  interface: z.record(z.string(), z.unknown()).optional(),
  dependencies: z.object({ tools: z.array(z.record(z.string(), z.unknown())) }).optional(),
  hidden: z.boolean(),
}));

const StoreFile = lazySchema(() => z.object({ revision: z.literal(PARSER_REVISION), entries: z.record(z.string(), StoredMetadata) }));

/** Parsed skill files by content hash, backed by one JSON file. */
export class SkillMetadataStore {
  readonly #file: string;
  /** Everything known: the file's entries, then what was parsed since; bounded at each save. */
  #known: Promise<Map<string, SkillMetadata>> | undefined;
  /** The keys asked for since the last save, most recent scan first in the next write. */
  readonly #recent = new Set<string>();
  #changed = false;
  /** The save in progress, if any. */
  #saving: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /** The metadata of a SKILL.md text, from the store when this text was parsed before; throws as parseSkillFile does. */
  async metadata(text: string, openAiYaml: string | undefined): Promise<SkillMetadata> {
    const key = createHash('sha256').update(text).update(openAiYaml === undefined ? '\u0001' : `\u0000${openAiYaml}`).digest('hex');
    const known = await this.#load();
    let metadata = known.get(key);
    if (metadata === undefined) {
      metadata = await parseSkillFile(text, openAiYaml);
      known.set(key, metadata);
      this.#changed = true;
    }
    this.#recent.add(key);
    return metadata;
  }

  /**
   * Writes the store when a file was parsed since the last write; keeps the last scan's entries first.
   * Saves run one after another: host and plugin scans share the store and its file.
   */
  save(): Promise<void> {
    const run = this.#saving.then(() => this.#save());
    this.#saving = run.catch(() => undefined);
    return run;
  }

  async #save(): Promise<void> {
    const known = await this.#load();
    const recent = new Set(this.#recent);
    this.#recent.clear();
    if (!this.#changed) return;
    this.#changed = false;
    const order = [...recent, ...[...known.keys()].filter((key) => !recent.has(key))].slice(0, MAX_STORED_SKILLS);
    const kept = new Map(order.map((key) => [key, known.get(key)!] as const));
    this.#known = Promise.resolve(kept);
    const text = JSON.stringify({ revision: PARSER_REVISION, entries: Object.fromEntries(kept) });
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
    this.#known ??= readFile(this.#file, 'utf8').then(
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
    return this.#known;
  }
}
