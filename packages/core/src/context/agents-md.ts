// The AGENTS.md fragment: the user's global instructions and, per attached environment, the project
// docs from its repository root down to its cwd, in Codex 0.171.0's wrapper. `project_doc_max_bytes`
// bounds the project docs of every environment together, counting file bytes only.
import { AGENTS_MD_FRAGMENT } from '@skein/protocol';

/** One AGENTS.md file: where it was read (a native path on its environment) and its text. */
export interface AgentsMdDoc {
  readonly path: string;
  readonly text: string;
}

/** The project docs found on one environment. */
export interface EnvironmentAgentsMd {
  readonly environmentId: string;
  /** The environment's cwd, a native path there. */
  readonly cwd: string;
  /** Repository root first, cwd last; empty files left out. */
  readonly docs: readonly AgentsMdDoc[];
}

/** The instructions found for a thread. */
export interface AgentsMdSources {
  /** `$CODEX_HOME/AGENTS.md`, if present and not blank. */
  readonly global: AgentsMdDoc | undefined;
  /** Each attached environment's docs, the primary first. */
  readonly environments: readonly EnvironmentAgentsMd[];
}

/** The line the fragment starts with. */
export const AGENTS_MD_PREFIX = AGENTS_MD_FRAGMENT.open;
const SEPARATOR = '\n\n--- project-doc ---\n\n';

/** `text` cut to at most `maxBytes` of UTF-8, on a character boundary. */
function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  // Decoding a cut buffer may end in a replacement character; drop it rather than send half a code point.
  return bytes.subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
}

/**
 * The docs that fit in `maxBytes`, in order: each file is cut to what is left of the budget (the
 * separators between files are not counted), and a file nothing is left for is dropped, as is an
 * environment left with no docs.
 */
export function boundProjectDocs(environments: readonly EnvironmentAgentsMd[], maxBytes: number): EnvironmentAgentsMd[] {
  let left = Math.max(0, maxBytes);
  return environments
    .map((environment) => {
      const docs: AgentsMdDoc[] = [];
      for (const doc of environment.docs) {
        const text = cutToBytes(doc.text, left);
        if (text === '') continue;
        left -= Buffer.byteLength(text, 'utf8');
        docs.push({ path: doc.path, text });
      }
      return { ...environment, docs };
    })
    .filter((environment) => environment.docs.length > 0);
}

/** What a thread's instructions are, ready for the model and for `instructionSources`. */
export interface AgentsMdInstructions {
  /** The fragment text, or undefined when there are no instructions at all. */
  readonly text: string | undefined;
  /** The files it holds, as native paths: the global file first, then each environment's in order. */
  readonly sources: readonly string[];
}

/**
 * Renders the instructions. With project docs on one environment (or none), the title names its cwd
 * (else `cwd`, the primary's) and the global file is set off by Codex's project-doc separator; with
 * docs on several, each environment's docs follow a ``for `<id>` with root <cwd>`` line.
 */
export function agentsMdInstructions(cwd: string, sources: AgentsMdSources, maxBytes: number): AgentsMdInstructions {
  const environments = boundProjectDocs(sources.environments, maxBytes);
  const global = sources.global;
  const paths = [...(global === undefined ? [] : [global.path]), ...environments.flatMap((environment) => environment.docs.map((doc) => doc.path))];
  const joined = (docs: readonly AgentsMdDoc[]) => docs.map((doc) => doc.text).join('\n\n');
  if (environments.length <= 1) {
    const only = environments[0];
    const project = only === undefined ? '' : joined(only.docs);
    if (global === undefined && project === '') return { text: undefined, sources: [] };
    const body = global === undefined ? project : project === '' ? global.text : `${global.text.trimEnd()}${SEPARATOR}${project}`;
    // The definition closes with `</INSTRUCTIONS>` and puts nothing between its markers and the body.
    return { text: AGENTS_MD_FRAGMENT.render(` for ${only?.cwd ?? cwd}\n\n<INSTRUCTIONS>\n${body}\n`).text, sources: paths };
  }
  const sections = environments.map((environment) => `for \`${environment.environmentId}\` with root ${environment.cwd}\n\n${joined(environment.docs)}`);
  const body = [...(global === undefined ? [] : [global.text.trimEnd()]), ...sections].join('\n\n');
  return { text: AGENTS_MD_FRAGMENT.render(`\n\n<INSTRUCTIONS>\n${body}\n`).text, sources: paths };
}
