// `skills/config/write` persists a toggle as Codex does: a `[[skills.config]]` table in the user's
// config.toml with `path` or `name` and `enabled`. The file is edited as text — an existing entry for
// the same skill is replaced, else one is appended — so the user's comments and layout stay, and it
// is written to a temporary file and renamed, so a crash never leaves half a config.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'smol-toml';

/** The skill an entry names. */
export type SkillSelector = { readonly path: string } | { readonly name: string };

const HEADER = /^\s*\[\[\s*skills\.config\s*\]\]\s*(#.*)?$/;
const ANY_HEADER = /^\s*\[/;

/** Sets `enabled` for `skill` in the config file `file` (created if missing). */
export async function writeSkillToggle(file: string, skill: SkillSelector, enabled: boolean): Promise<void> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  // Refuse to edit a file that is not TOML: the user's mistake should not become a bigger one.
  parse(text);
  const block = renderEntry(skill, enabled);
  const lines = text.split('\n');
  const existing = findEntry(lines, skill);
  let next: string;
  if (existing === undefined) {
    const trimmed = text.replace(/\s+$/, '');
    next = `${trimmed}${trimmed === '' ? '' : '\n\n'}${block}\n`;
  } else {
    next = [...lines.slice(0, existing.start), ...block.split('\n'), ...lines.slice(existing.end)].join('\n');
  }
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, next);
  await rename(temporary, file);
}

function renderEntry(skill: SkillSelector, enabled: boolean): string {
  const table = 'path' in skill ? { path: skill.path, enabled } : { name: skill.name, enabled };
  return `[[skills.config]]\n${stringify(table).trimEnd()}`;
}

/** The lines `[start, end)` of the `[[skills.config]]` table naming `skill`, trailing blank lines excluded. */
function findEntry(lines: readonly string[], skill: SkillSelector): { start: number; end: number } | undefined {
  for (let start = 0; start < lines.length; start++) {
    if (!HEADER.test(lines[start] ?? '')) continue;
    let end = start + 1;
    while (end < lines.length && !ANY_HEADER.test(lines[end] ?? '')) end++;
    while (end > start + 1 && (lines[end - 1] ?? '').trim() === '') end--;
    const body = parse(lines.slice(start + 1, end).join('\n')) as Record<string, unknown>;
    if ('path' in skill ? body.path === skill.path : body.path === undefined && body.name === skill.name) return { start, end };
  }
  return undefined;
}
