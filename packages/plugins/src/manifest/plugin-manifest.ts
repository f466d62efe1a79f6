// A plugin's manifest: `.codex-plugin/plugin.json` (or Claude's `.claude-plugin/plugin.json`) at the
// plugin's root. Only `name` is required; skills default to `./skills/`.
import path from 'node:path';
import * as z from 'zod';
import { isSafeName } from '../names.js';
import { PluginError } from '../plugin-error.js';
import { assertInside } from './inside.js';
import { readJsonFile } from './read-json-file.js';
import { beneath, RelativeManifestPath } from './relative-path.js';

/** Where a plugin's manifest is looked for, first match wins. */
export const PLUGIN_MANIFEST_PATHS = ['.codex-plugin/plugin.json', '.claude-plugin/plugin.json'] as const;

const text = z.string().nullish();

const PluginInterfaceJson = z.looseObject({
  displayName: text,
  shortDescription: text,
  longDescription: text,
  developerName: text,
  category: text,
  capabilities: z.array(z.string()).optional(),
  websiteUrl: text,
  privacyPolicyUrl: text,
  termsOfServiceUrl: text,
  defaultPrompt: z.union([z.string(), z.array(z.string())]).nullish(),
  brandColor: text,
  composerIcon: text,
  logo: text,
  screenshots: z.array(z.string()).optional(),
});

const PathOrPaths = z.union([RelativeManifestPath, z.array(RelativeManifestPath)]);

export const PluginManifestJson = z.looseObject({
  name: z.string().refine(isSafeName, { error: 'must be a plugin name: letters, digits, `-`, `_` and inner dots' }),
  version: z.string().min(1).nullish(),
  description: text,
  keywords: z.array(z.string()).optional(),
  skills: PathOrPaths.optional(),
  /** A `.mcp.json`-style file, or the servers inline. */
  mcpServers: z.union([RelativeManifestPath, z.record(z.string(), z.unknown())]).optional(),
  /** A hooks file, or the hook groups inline. */
  hooks: z.union([PathOrPaths, z.record(z.string(), z.unknown())]).optional(),
  apps: z.union([RelativeManifestPath, z.record(z.string(), z.unknown())]).optional(),
  interface: PluginInterfaceJson.optional(),
});
export type PluginManifestJson = z.infer<typeof PluginManifestJson>;

/** A plugin's manifest, read. */
export interface PluginManifest {
  /** The plugin's root folder. */
  readonly root: string;
  readonly file: string;
  readonly json: PluginManifestJson;
  /** Absolute folders its skills are found in. */
  readonly skillRoots: readonly string[];
}

/** The manifest of the plugin at `root`; `InvalidManifest` when there is none or it does not parse. */
export async function readPluginManifest(root: string): Promise<PluginManifest> {
  for (const relative of PLUGIN_MANIFEST_PATHS) {
    const file = path.join(root, relative);
    const json = await readJsonFile(file, PluginManifestJson, root);
    if (json === undefined) continue;
    const skills = json.skills === undefined ? ['./skills/'] : typeof json.skills === 'string' ? [json.skills] : json.skills;
    return { root, file, json, skillRoots: skills.map((skill) => beneath(root, skill)) };
  }
  throw new PluginError('InvalidManifest', `plugin folder ${root} has no ${PLUGIN_MANIFEST_PATHS.join(' or ')}`);
}

/** The manifest's skill folders that exist and resolve (through links) inside the plugin's folder. */
export async function containedSkillRoots(manifest: PluginManifest): Promise<string[]> {
  const roots = await Promise.all(manifest.skillRoots.map((root) => assertInside(manifest.root, root).then(() => root, () => undefined)));
  return roots.filter((root): root is string => root !== undefined);
}
