// The `<tools>` developer part: the deferred tool namespaces (and deferred tools outside one), so the
// model knows what tool_search can find. Codex sends it as the last part of the first developer
// message; an MCP server is listed by its namespace alone, anything with a description with it.
import { DEFERRED_TOOLS_FRAGMENT } from '@skein/protocol';

/** One line of the list: a namespace or tool name, and an optional one-line description. */
export interface DeferredToolEntry {
  readonly name: string;
  readonly description?: string | undefined;
}

/** The rendered part, or undefined when nothing is deferred. */
export function renderToolsFragment(entries: readonly DeferredToolEntry[]): string | undefined {
  if (entries.length === 0) return undefined;
  const lines = entries.map((entry) => (entry.description === undefined || entry.description === '' ? `- ${entry.name}` : `- ${entry.name}: ${firstLine(entry.description)}`));
  return DEFERRED_TOOLS_FRAGMENT.render(['Some tools are not listed above; call tool_search to find and load them. They come from:', ...lines].join('\n')).text;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}
