// A code-mode model's `additional_tools` item in the thread's rollout, as Codex records it: a
// `response_item` line when what the model is offered changes (the first turn, a new MCP server),
// and a `top_level_tools` world-state section with a hash per namespace and per tool, so a reader
// sees what changed. The item is offered again with every request, so it is not history: a resumed
// thread skips it (the reconstructor does).
import { createHash } from 'node:crypto';
import type { AdditionalToolsItem } from '@skein/protocol';
import type { ThreadRecorder } from './thread-recorder.js';

/** The world-state section that names what was offered. */
export const TOP_LEVEL_TOOLS_SECTION = 'top_level_tools';

export class OfferedToolsRecord {
  readonly #recorder: ThreadRecorder;
  #recordedId: string | undefined;

  constructor(recorder: ThreadRecorder) {
    this.#recorder = recorder;
  }

  /** Records `item` unless it is the one recorded last. */
  record(item: AdditionalToolsItem | undefined): void {
    if (item === undefined || item.id === this.#recordedId) return;
    this.#recordedId = item.id ?? undefined;
    this.#recorder.recordItems([item]);
    this.#recorder.recordWorldState([{ sectionId: TOP_LEVEL_TOOLS_SECTION, snapshot: toolHashes(item.tools) }]);
  }
}

/** `{"clock": <hash>, "clock.sleep": <hash>, …}`, sorted, as Codex's section reads. */
function toolHashes(tools: readonly unknown[]): Record<string, string> {
  const hashes: [string, string][] = [];
  for (const tool of tools) {
    const name = nameOf(tool);
    if (name === undefined) continue;
    hashes.push([name, sha1(tool)]);
    const inner = (tool as { tools?: unknown }).tools;
    if (!Array.isArray(inner)) continue;
    for (const member of inner as unknown[]) {
      const memberName = nameOf(member);
      if (memberName !== undefined) hashes.push([`${name}.${memberName}`, sha1(member)]);
    }
  }
  return Object.fromEntries(hashes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function nameOf(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

function sha1(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('hex');
}
