// What a plugin ships besides skills (MCP servers, hooks), read to be listed by `plugin/read`:
// Skein does not start a plugin's MCP servers or run its hooks yet, and says so by listing them.
import path from 'node:path';
import * as z from 'zod';
import { readJsonFile } from './read-json-file.js';
import type { PluginManifest } from './plugin-manifest.js';

/** Read where the manifest names no file of its own. */
const DEFAULT_MCP_FILE = '.mcp.json';
const DEFAULT_HOOKS_FILE = 'hooks/hooks.json';

const McpFile = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).optional() });
const HooksFile = z.looseObject({ hooks: z.record(z.string(), z.array(z.unknown())).optional() });

/** The names of the MCP servers the plugin declares, sorted. */
export async function pluginMcpServerNames(manifest: PluginManifest): Promise<string[]> {
  const declared = manifest.json.mcpServers;
  if (typeof declared === 'object') return Object.keys(declared).sort();
  const file = path.join(manifest.root, declared ?? DEFAULT_MCP_FILE);
  const json = await readJsonFile(file, McpFile);
  return Object.keys(json?.mcpServers ?? {}).sort();
}

/** One hook group the plugin declares: `eventName` as the wire spells events (`preToolUse`). */
export interface PluginHook {
  readonly key: string;
  readonly eventName: string;
}

/** The hook groups the plugin declares, one entry per handler, keyed `<plugin>:<file>:<Event>:<group>:<handler>`. */
export async function pluginHooks(manifest: PluginManifest): Promise<PluginHook[]> {
  const declared = manifest.json.hooks;
  const sources: { readonly label: string; readonly hooks: Record<string, unknown[]> }[] = [];
  if (typeof declared === 'object' && !Array.isArray(declared)) {
    sources.push({ label: 'plugin.json', hooks: HooksFile.parse({ hooks: declared }).hooks ?? {} });
  } else {
    const files = declared === undefined ? [DEFAULT_HOOKS_FILE] : typeof declared === 'string' ? [declared] : declared;
    for (const relative of files) {
      const json = await readJsonFile(path.join(manifest.root, relative), HooksFile);
      if (json?.hooks !== undefined) sources.push({ label: path.normalize(relative), hooks: json.hooks });
    }
  }
  return sources.flatMap(({ label, hooks }) =>
    Object.entries(hooks).flatMap(([event, groups]) =>
      groups.flatMap((group, groupIndex) => {
        const handlers = (group as { hooks?: unknown }).hooks;
        const count = Array.isArray(handlers) ? handlers.length : 1;
        return Array.from({ length: count }, (_, handler) => ({
          key: `${manifest.json.name}:${label}:${event}:${groupIndex}:${handler}`,
          eventName: event.charAt(0).toLowerCase() + event.slice(1),
        }));
      }),
    ),
  );
}
