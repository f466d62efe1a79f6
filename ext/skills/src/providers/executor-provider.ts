// Executor skills: SKILL.md folders under the capability roots a host selected for the thread
// (`selectedCapabilityRoots`), found and read through the owning environment's filesystem only. A
// root whose environment is not attached gives a warning and no skills — never a host fallback.
import { PathUri, type ToolEnvironment } from '@skein/extension-api';
import { rootUri } from '../catalog/render-catalog.js';
import { parseSkillFile } from '../skill-file.js';
import type { Skill } from '../skill.js';
import type { SkillListing, SkillProvider, SkillProviderRequest, SkillResourceContents } from './skill-provider.js';

const WALK = { maxDepth: 4, maxDirectories: 2_000, maxEntries: 20_000, followDirectorySymlinks: false, pruneHiddenDirectories: true } as const;
/** A SKILL.md or resource larger than this is not read from an executor. */
export const MAX_EXECUTOR_FILE_BYTES = 1024 * 1024;

/** The built-in executor provider. */
export function executorSkillProvider(): SkillProvider {
  return {
    id: 'executor',
    kind: 'executor',
    async list(request: SkillProviderRequest): Promise<SkillListing> {
      const skills: Skill[] = [];
      const warnings: string[] = [];
      for (const root of request.init.selectedCapabilityRoots) {
        const { environmentId, path: rootPath } = root.location;
        const environment = request.environments.find((candidate) => candidate.id === environmentId);
        if (environment === undefined) {
          warnings.push(`capability root '${root.id}': environment '${environmentId}' is not attached to this thread, so its skills are unavailable`);
          continue;
        }
        try {
          skills.push(...(await listRoot(environment, root.id, rootPath, warnings)));
        } catch (error) {
          warnings.push(`capability root '${root.id}' (${rootPath} on '${environmentId}'): ${(error as Error).message}`);
        }
      }
      return { skills, warnings };
    },
    async read(skill: Skill, resource: string, request: SkillProviderRequest): Promise<SkillResourceContents> {
      if (skill.locator.kind !== 'executor') throw new Error('not an executor skill');
      const { environmentId, skillRoot } = skill.locator;
      const environment = request.environments.find((candidate) => candidate.id === environmentId);
      if (environment === undefined) throw new Error(`environment '${environmentId}' is not attached to this thread`);
      const relative = resource.slice(skill.locator.package.length).replace(/^\//, '');
      const convention = environment.pathConvention;
      const base = PathUri.fromNativePath(skillRoot, convention);
      const target = relative === '' ? base : base.join(...relative.split('/'));
      // The file must stay inside the package once symlinks are resolved.
      const [canonicalBase, canonicalTarget] = await Promise.all([environment.fileSystem.canonicalize(base), environment.fileSystem.canonicalize(target)]);
      if (!canonicalBase.contains(canonicalTarget)) throw new Error(`${resource} resolves outside its skill package`);
      const info = await environment.fileSystem.getMetadata(canonicalTarget);
      if (!info.isFile) throw new Error(`${resource} is not a file`);
      if (info.size > MAX_EXECUTOR_FILE_BYTES) throw new Error(`${resource} is ${info.size} bytes; at most ${MAX_EXECUTOR_FILE_BYTES} are read`);
      return { resource, contents: await environment.fileSystem.readFileText(canonicalTarget), skillRoot };
    },
  };
}

async function listRoot(environment: ToolEnvironment, authorityId: string, rootPath: string, warnings: string[]): Promise<Skill[]> {
  const fs = environment.fileSystem;
  const convention = environment.pathConvention;
  const root = PathUri.fromNativePath(rootPath, convention);
  const outcome = await fs.walk(root, WALK);
  if (outcome.truncated) warnings.push(`capability root '${authorityId}': more folders than a listing visits; some skills may be missing`);
  const files = [
    ...(await fs.getMetadata(root.join('SKILL.md')).then(
      (info) => (info.isFile ? [root.join('SKILL.md')] : []),
      () => [],
    )),
    ...outcome.entries.filter((entry) => entry.kind === 'file' && entry.path.basename() === 'SKILL.md').map((entry) => entry.path),
  ];
  const skills: Skill[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.toString())) continue;
    seen.add(file.toString());
    const dir = file.parent();
    const skillRoot = dir.toNativePath(convention);
    try {
      const info = await fs.getMetadata(file);
      if (info.size > MAX_EXECUTOR_FILE_BYTES) throw new Error(`SKILL.md is ${info.size} bytes; at most ${MAX_EXECUTOR_FILE_BYTES} are read`);
      const openAiYaml = await fs.readFileText(dir.join('agents', 'openai.yaml')).catch(() => undefined);
      const metadata = await parseSkillFile(await fs.readFileText(file), openAiYaml);
      const packageUri = rootUri(authorityId, skillRoot);
      skills.push({
        ...metadata,
        scope: 'repo',
        locator: { kind: 'executor', authorityId, environmentId: environment.id, rootPath, skillRoot, package: packageUri, mainResource: `${packageUri}/SKILL.md` },
      });
    } catch (error) {
      warnings.push(`${skillRoot}/SKILL.md on '${environment.id}': ${(error as Error).message}`);
    }
  }
  return skills;
}
