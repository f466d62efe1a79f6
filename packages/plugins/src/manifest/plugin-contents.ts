// What a plugin ships besides skills (MCP servers, hooks), read to be listed by `plugin/read`:
// Skein does not start a plugin's MCP servers or run its hooks yet, and says so by listing them. A
// file that is missing or does not parse lists nothing rather than failing the read.
import path from 'node:path';
import * as z from 'zod';
import { readJsonFile } from './read-json-file.js';
import type { PluginManifest } from './plugin-manifest.js';

/** Read where the manifest names no file of its own. */
const DEFAULT_MCP_FILE = '.mcp.json';
const DEFAULT_HOOKS_FILE = 'hooks/hooks.json';

const McpFile = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).optional() });
const HookEvents = z.record(z.string(), z.unknown());
const HooksFile = z.looseObject({ hooks: HookEvents.optional() });

/** `read` of a plugin file, or undefined when it is missing, outside the plugin, or does not parse. */
async function optionalFile<T>(manifest: PluginManifest, relative: string, schema: z.ZodType<T>): Promise<T | undefined> {
  return readJsonFile(path.join(manifest.root, relative), schema, manifest.root).catch(() => undefined);
}

/** The names of the MCP servers the plugin declares, sorted. */
export async function pluginMcpServerNames(manifest: PluginManifest): Promise<string[]> {
  const declared = manifest.json.mcpServers;
  if (typeof declared === 'object') return Object.keys(declared).sort();
  const json = await optionalFile(manifest, declared ?? DEFAULT_MCP_FILE, McpFile);
  return Object.keys(json?.mcpServers ?? {}).sort();
}

/** One hook handler the plugin declares: `eventName` as the wire spells events (`preToolUse`). */
export interface PluginHook {
  readonly key: string;
  readonly eventName: string;
}

/** The hook handlers the plugin declares, keyed `<plugin>:<file>:<Event>:<group>:<handler>`; malformed groups are left out. */
export async function pluginHooks(manifest: PluginManifest): Promise<PluginHook[]> {
  const declared = manifest.json.hooks;
  const sources: { readonly label: string; readonly hooks: Record<string, unknown> }[] = [];
  if (typeof declared === 'object' && !Array.isArray(declared)) {
    sources.push({ label: 'plugin.json', hooks: declared });
  } else {
    const files = declared === undefined ? [DEFAULT_HOOKS_FILE] : typeof declared === 'string' ? [declared] : declared;
    for (const relative of files) {
      const json = await optionalFile(manifest, relative, HooksFile);
      if (json?.hooks !== undefined) sources.push({ label: path.normalize(relative), hooks: json.hooks });
    }
  }
  return sources.flatMap(({ label, hooks }) =>
    Object.entries(hooks).flatMap(([event, groups]) =>
      (Array.isArray(groups) ? groups : []).flatMap((group: unknown, groupIndex) => {
        if (typeof group !== 'object' || group === null) return [];
        const handlers = (group as { hooks?: unknown }).hooks;
        const count = Array.isArray(handlers) ? handlers.length : 0;
        return Array.from({ length: count }, (_, handler) => ({
          key: `${manifest.json.name}:${label}:${event}:${groupIndex}:${handler}`,
          eventName: event.charAt(0).toLowerCase() + event.slice(1),
        }));
      }),
    ),
  );
}
