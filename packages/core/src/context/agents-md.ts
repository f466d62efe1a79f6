// The AGENTS.md fragment: the user's global instructions and the project docs from the repository
// root down to the cwd, in Codex's wrapper, bounded by `project_doc_max_bytes`.
import { AGENTS_MD_FRAGMENT } from '@skein/protocol';

/** The instructions found for a cwd. */
export interface AgentsMdSources {
  /** `$HOME_DIR/AGENTS.md`, if present. */
  readonly global: string | undefined;
  /** Project docs, repository root first, cwd last. */
  readonly projectDocs: readonly string[];
}

/** The line the fragment starts with, followed by the cwd. */
export const AGENTS_MD_PREFIX = AGENTS_MD_FRAGMENT.open;
const SEPARATOR = '\n\n--- project-doc ---\n\n';

/** Joins project docs and cuts them to `maxBytes` (UTF-8, on a character boundary). */
export function boundProjectDocs(docs: readonly string[], maxBytes: number): string {
  const joined = docs.join('\n\n');
  const bytes = Buffer.from(joined, 'utf8');
  if (bytes.length <= maxBytes) return joined;
  // Decoding a cut buffer may end in a replacement character; drop it rather than send half a code point.
  return bytes.subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
}

/** The fragment text, or undefined when there are no instructions at all. */
export function renderAgentsMd(cwd: string, sources: AgentsMdSources, maxBytes: number): string | undefined {
  const project = maxBytes > 0 ? boundProjectDocs(sources.projectDocs, maxBytes) : '';
  const global = sources.global?.trim() === '' ? undefined : sources.global;
  if (global === undefined && project === '') return undefined;
  const body = global === undefined ? project : project === '' ? global : `${global.trimEnd()}${SEPARATOR}${project}`;
  // The definition closes with `</INSTRUCTIONS>` and puts nothing between its markers and the body.
  return AGENTS_MD_FRAGMENT.render(`${cwd}\n\n<INSTRUCTIONS>\n${body}\n`).text;
}
