// Finding the AGENTS.md files for a cwd: the user's global file in the home directory, then one per
// folder from the project root down to the cwd (folders below the cwd are not read).
import path from 'node:path';
import type { WorkspaceReader } from '../session/workspace-reader.js';
import type { AgentsMdSources } from './agents-md.js';

/** The file name Codex reads in each folder. */
export const AGENTS_MD_FILE = 'AGENTS.md';

/** Where to look. */
export interface AgentsMdLocations {
  readonly homeDir: string;
  /** The project root (nearest folder with a root marker); the cwd itself when there is none. */
  readonly projectRoot: string;
  readonly cwd: string;
}

/** Reads the global file and the project docs, root first. */
export async function discoverAgentsMd(reader: WorkspaceReader, locations: AgentsMdLocations): Promise<AgentsMdSources> {
  const global = await reader.readText(path.join(locations.homeDir, AGENTS_MD_FILE));
  const folders: string[] = [];
  const relative = path.relative(locations.projectRoot, locations.cwd);
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  for (let dir = locations.cwd; ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (!inside || dir === locations.projectRoot || path.dirname(dir) === dir) break;
  }
  const projectDocs: string[] = [];
  for (const folder of folders) {
    const doc = await reader.readText(path.join(folder, AGENTS_MD_FILE));
    if (doc !== undefined && doc.trim() !== '') projectDocs.push(doc);
  }
  return { global: global?.trim() === '' ? undefined : global, projectDocs };
}
