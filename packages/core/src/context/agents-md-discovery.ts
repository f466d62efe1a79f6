// Finding a thread's AGENTS.md files: the user's global file in the home directory (this machine),
// then on each attached environment, through that environment's file system, one per folder from
// its project root (the nearest folder holding a root marker) down to its cwd. Paths are walked as
// PathUris, so a Windows executor's drive letters and roots are kept.
import path from 'node:path';
import type { ExecutorFileSystem } from '@skein/exec-server';
import type { PathUri } from '@skein/protocol';
import type { WorkspaceReader } from '../session/workspace-reader.js';
import type { AgentsMdDoc, AgentsMdSources, EnvironmentAgentsMd } from './agents-md.js';

/** The file name Codex reads in each folder. */
export const AGENTS_MD_FILE = 'AGENTS.md';

/** One environment to look on. */
export interface AgentsMdPlace {
  readonly environmentId: string;
  readonly fileSystem: ExecutorFileSystem;
  readonly cwd: PathUri;
}

/** Where to look. */
export interface AgentsMdLocations {
  /** Reads the global file on this machine. */
  readonly reader: WorkspaceReader;
  readonly homeDir: string;
  /** `project_root_markers`: file or folder names that mark a project root (none: the cwd is the root). */
  readonly rootMarkers: readonly string[];
  /** The attached environments, the primary first. */
  readonly places: readonly AgentsMdPlace[];
}

/** Reads the global file and every environment's project docs, root first. */
export async function discoverAgentsMd(locations: AgentsMdLocations): Promise<AgentsMdSources> {
  const globalPath = path.join(locations.homeDir, AGENTS_MD_FILE);
  const global = await locations.reader.readText(globalPath);
  const environments = await Promise.all(locations.places.map((place) => projectDocs(place, locations.rootMarkers)));
  return { global: global === undefined || global.trim() === '' ? undefined : { path: globalPath, text: global }, environments };
}

async function projectDocs(place: AgentsMdPlace, rootMarkers: readonly string[]): Promise<EnvironmentAgentsMd> {
  const convention = place.cwd.convention;
  const folders = await foldersFromRoot(place, rootMarkers);
  const docs: AgentsMdDoc[] = [];
  for (const folder of folders) {
    const file = folder.join(AGENTS_MD_FILE);
    const text = await readIfFile(place.fileSystem, file);
    if (text !== undefined && text.trim() !== '') docs.push({ path: file.toNativePath(convention), text });
  }
  return { environmentId: place.environmentId, cwd: place.cwd.toNativePath(convention), docs };
}

/** The folders from the project root down to the cwd; just the cwd when no folder above holds a marker. */
export async function foldersFromRoot(place: AgentsMdPlace, rootMarkers: readonly string[]): Promise<PathUri[]> {
  const walked: PathUri[] = [];
  for (let folder = place.cwd; ; folder = folder.parent()) {
    walked.unshift(folder);
    if (await holdsMarker(place.fileSystem, folder, rootMarkers)) return walked;
    if (folder.isRoot) return [place.cwd];
  }
}

async function holdsMarker(fileSystem: ExecutorFileSystem, folder: PathUri, markers: readonly string[]): Promise<boolean> {
  for (const marker of markers) {
    if (await exists(fileSystem, folder.join(marker))) return true;
  }
  return false;
}

async function exists(fileSystem: ExecutorFileSystem, path: PathUri): Promise<boolean> {
  try {
    await fileSystem.getMetadata(path);
    return true;
  } catch {
    return false;
  }
}

/** The file's text; undefined when it is missing, not a file, or unreadable there. */
export async function readIfFile(fileSystem: ExecutorFileSystem, path: PathUri): Promise<string | undefined> {
  try {
    return await fileSystem.readFileText(path);
  } catch {
    return undefined;
  }
}
