// Finding the skills under one host folder: every SKILL.md within a bounded depth, read and parsed.
// A missing root is simply empty; an unreadable or malformed skill is a problem naming its file.
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseSkillFile } from '../skill-file.js';
import type { Skill, SkillMetadata, SkillProblem } from '../skill.js';
import type { HostSkillRoot } from './host-roots.js';

/** How deep below a root a SKILL.md is looked for, and how many folders one root may cost. */
export const MAX_SCAN_DEPTH = 6;
export const MAX_SCANNED_DIRS = 20_000;
/** A SKILL.md larger than this is refused when listing (its body is bounded again when injected). */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** What one root holds. */
export interface ScannedRoot {
  readonly root: HostSkillRoot;
  readonly skills: Skill[];
  readonly problems: SkillProblem[];
}

/** How a SKILL.md's text (and its agents/openai.yaml) becomes metadata: parsed, or from a store. */
export type ReadSkillMetadata = (text: string, openAiYaml: string | undefined) => Promise<SkillMetadata>;

/**
 * Scans `root`; `skip` names folders left to another root (the system folder inside the user's).
 * `followLinks` false reads no symbolic link (a plugin's folder: installing it copies none, and a
 * link could reach outside it).
 */
export async function scanHostRoot(root: HostSkillRoot, skip: ReadonlySet<string> = new Set(), read: ReadSkillMetadata = parseSkillFile, followLinks = true): Promise<ScannedRoot> {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  let budget = MAX_SCANNED_DIRS;
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (budget-- <= 0) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      // A root that does not exist is simply empty; one that cannot be read is worth telling.
      if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') problems.push({ path: dir, message: `cannot read the folder: ${error.message}` });
      return undefined;
    });
    if (entries === undefined) return;
    if (entries.some((entry) => entry.name === 'SKILL.md' && (followLinks ? !entry.isDirectory() : entry.isFile()))) {
      const skill = await readHostSkill(root, dir, read, followLinks).catch((error: unknown) => {
        problems.push({ path: path.join(dir, 'SKILL.md'), message: (error as Error).message });
        return undefined;
      });
      if (skill !== undefined) skills.push(skill);
      // A skill's own folders (scripts, references) hold no further skills.
      return;
    }
    if (depth >= MAX_SCAN_DEPTH) return;
    const children = entries.filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || (followLinks && entry.isSymbolicLink())));
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      const full = path.join(dir, child.name);
      if (skip.has(full)) continue;
      if (child.isSymbolicLink() && !(await stat(full).then((info) => info.isDirectory(), () => false))) continue;
      await visit(full, depth + 1);
    }
  };
  await visit(root.path, 0);
  return { root, skills, problems };
}

async function readHostSkill(root: HostSkillRoot, dir: string, read: ReadSkillMetadata, followLinks: boolean): Promise<Skill> {
  const file = path.join(dir, 'SKILL.md');
  const info = await stat(file);
  if (info.size > MAX_SKILL_FILE_BYTES) throw new Error(`SKILL.md is ${info.size} bytes; at most ${MAX_SKILL_FILE_BYTES} are read`);
  const yaml = path.join(dir, 'agents', 'openai.yaml');
  const yamlReadable = followLinks || (await lstat(yaml).then((entry) => entry.isFile(), () => false));
  const openAiYaml = yamlReadable ? await readFile(yaml, 'utf8').catch(() => undefined) : undefined;
  const metadata = await read(await readFile(file, 'utf8'), openAiYaml);
  const face = metadata.interface === undefined ? undefined : resolveIcons(metadata.interface, dir);
  return { ...metadata, ...(face === undefined ? {} : { interface: face }), scope: root.scope, locator: { kind: 'file', rootPath: root.path, path: file } };
}

/** Icons are named relative to the skill's folder; clients get absolute paths. */
function resolveIcons(face: Readonly<Record<string, unknown>>, dir: string): Record<string, unknown> {
  const resolved: Record<string, unknown> = { ...face };
  for (const key of ['iconSmall', 'iconLarge']) {
    const value = face[key];
    if (typeof value === 'string') resolved[key] = path.resolve(dir, value);
  }
  return resolved;
}
