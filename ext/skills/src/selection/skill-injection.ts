// A selected skill's SKILL.md, sent after the prompt as Codex sends it: `<skill>`, its name, where it
// is, then the whole file — bounded, so one huge SKILL.md cannot take over the context.
import { SKILL_FRAGMENT, type ResponseItem } from '@skein/extension-api';

/** The most bytes of a SKILL.md injected (well below the 10K-token per-item limit). */
export const MAX_INJECTED_SKILL_BYTES = 32 * 1024;

/** The `<skill>` user message for a skill at `location` (a path or a `skill://` resource). */
export function skillMessage(name: string, location: string, contents: string): ResponseItem {
  const body = [`<name>${name}</name>`, `<path>${location}</path>`, boundedContents(contents, location)].join('\n');
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: SKILL_FRAGMENT.render(body).text }] };
}

function boundedContents(contents: string, location: string): string {
  const bytes = new TextEncoder().encode(contents);
  if (bytes.byteLength <= MAX_INJECTED_SKILL_BYTES) return contents;
  // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped by the decoder.
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, MAX_INJECTED_SKILL_BYTES)).replace(/\uFFFD$/, '');
  return `${head}\n[… SKILL.md truncated: ${bytes.byteLength} bytes, the first ${MAX_INJECTED_SKILL_BYTES} shown; read the rest from ${location}]`;
}
