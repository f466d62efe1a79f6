// The catalog the model reads: `<skills_instructions>` blocks in Codex 0.171.0's layout — a root alias
// table, then one line per listed skill whose locator says how it is reached. Host skills are files
// (`r0/greeter/SKILL.md`), executor skills environment resources (`e0/skills/cap-skill`), remote and
// custom skills orchestrator and custom resources, all read with `skills.read`. Every block is
// bounded in bytes.
import path from 'node:path';
import { defineContextFragment, type ContextFragment, type ContextFragmentDefinition } from '@skein/extension-api';
import type { Skill } from '../skill.js';

/** The most bytes one catalog block may take; skills past it are counted, not listed. */
export const MAX_CATALOG_BYTES = 24 * 1024;

/** `<skills_instructions>`: a catalog block, recognised as context in recorded history. */
export const SKILLS_INSTRUCTIONS_FRAGMENT: ContextFragmentDefinition = defineContextFragment({
  kind: 'host_skills.instructions',
  role: 'developer',
  open: '<skills_instructions>',
  close: '</skills_instructions>',
});

const HOST_INTRO = [
  '## Skills',
  'A skill is a folder of instructions (its SKILL.md) and any scripts or references it ships, for one kind of task. Below are the skills available in this session: each line gives the name, what the skill is for, and where its SKILL.md is.',
  'Use a skill when the user names it (`$name`) or when the task clearly matches its description. Open its SKILL.md before you start and follow it; read only the extra files it points you to.',
].join('\n');

const HOST_HOW_TO = [
  '### How to use skills',
  '- Paths are written as `<root alias>/<path>`; the table above says which folder each alias stands for. Read the file with your normal file tools.',
  '- Files a SKILL.md mentions by relative path are relative to the folder that holds it.',
  '- When several skills apply, use the smallest set that covers the task and say which ones you use.',
  '- If a skill cannot be read or does not fit after all, say so briefly and carry on without it.',
].join('\n');

/**
 * The package block's introduction; its example names a package the block lists, so it is never one
 * that does not exist. Orchestrator skills change under the thread, so the model is sent to
 * `skills.list` for the current ones rather than told this list is all of them.
 */
const packageIntro = (examplePackage: string, hasOrchestratorSkills: boolean) =>
  [
    '## Skills',
    'These skills are not on this machine: an environment resource lives on an execution environment, an orchestrator resource is served by the orchestrator, a custom resource by a provider the host added. Each line gives the name, what the skill is for, and its resource.',
    `A \`skill://\` identifier is not a filesystem path: do not open it with shell or file tools. Read a skill with the \`skills.read\` tool, passing the package as listed (for example \`skills.read(${JSON.stringify({ package: examplePackage })})\`); pass \`resource\` to read another file of the same package.`,
    ...(hasOrchestratorSkills
      ? ["The orchestrator's skills can change while you work and this list may not show all of them: call `skills.list` to see the current ones with their authorities, and pass the `authority` it gives to `skills.read`."]
      : []),
  ].join('\n');

/** One root alias, as the table lists it. */
interface AliasedRoot {
  readonly alias: string;
  readonly target: string;
}

/** The block for host skills, or undefined when none is listed. */
export function renderHostCatalog(skills: readonly Skill[]): ContextFragment | undefined {
  const listed = skills.filter((skill) => !skill.hidden && skill.locator.kind === 'file');
  if (listed.length === 0) return undefined;
  const roots = aliases(listed.map((skill) => (skill.locator.kind === 'file' ? skill.locator.rootPath : '')), 'r');
  const lines = listed.map((skill) => () => {
    if (skill.locator.kind !== 'file') return '';
    const alias = roots.get(skill.locator.rootPath) ?? '';
    const relative = path.relative(skill.locator.rootPath, skill.locator.path).split(path.sep).join('/');
    return entryLine(skill, `file: ${alias}/${relative}`);
  });
  return bounded(HOST_INTRO, [...roots].map(([target, alias]) => ({ alias, target })), lines, HOST_HOW_TO);
}

/** The block for skills read through `skills.read` (executor, remote, custom), or undefined when none. */
export function renderPackageCatalog(skills: readonly Skill[]): ContextFragment | undefined {
  const listed = skills.filter((skill) => !skill.hidden && skill.locator.kind !== 'file');
  const [first] = listed;
  if (first === undefined) return undefined;
  const executorRoots = executorAliases(listed);
  const lines = listed.map((skill) => () => entryLine(skill, locatorText(skill, executorRoots)));
  const intro = packageIntro(listedPackage(first, executorRoots), listed.some((skill) => skill.locator.kind === 'remote'));
  return bounded(intro, [...executorRoots].map(([target, alias]) => ({ alias, target })), lines, undefined);
}

/** The `e0`, `e1`, … aliases of the executor roots of the listed (not hidden) skills, as the catalog shows them. */
export function executorAliases(skills: readonly Skill[]): Map<string, string> {
  return aliases(
    skills.flatMap((skill) => (!skill.hidden && skill.locator.kind === 'executor' ? [rootUri(skill.locator.authorityId, skill.locator.rootPath)] : [])),
    'e',
  );
}

/** `skill://<authority><absolute path>`: how a capability root's files are named. */
export function rootUri(authorityId: string, rootPath: string): string {
  return `skill://${authorityId}${rootPath.startsWith('/') ? '' : '/'}${rootPath.replaceAll('\\', '/')}`;
}

/** The short locator of an executor package: `e0/…` under its root's alias; the package itself when it is the root. */
export function shortPackage(packageUri: string, executorRoots: ReadonlyMap<string, string>): string {
  for (const [root, alias] of executorRoots) {
    if (packageUri.startsWith(`${root}/`)) return `${alias}/${packageUri.slice(root.length + 1)}`;
  }
  return packageUri;
}

/** Aliases for the distinct roots, in order of first use: `r0`, `r1`, … */
export function aliases(roots: readonly string[], prefix: string): Map<string, string> {
  const table = new Map<string, string>();
  for (const root of roots) if (!table.has(root)) table.set(root, `${prefix}${table.size}`);
  return table;
}

/** Where the catalog line says the skill is: its package (short under an executor alias), or its file. */
function listedPackage(skill: Skill, executorRoots: ReadonlyMap<string, string>): string {
  switch (skill.locator.kind) {
    case 'executor':
      return shortPackage(skill.locator.package, executorRoots);
    case 'remote':
    case 'custom':
      return skill.locator.package;
    case 'file':
      return skill.locator.path;
  }
}

const LOCATOR_LABEL: Record<Skill['locator']['kind'], string> = { executor: 'environment resource', remote: 'orchestrator resource', custom: 'custom resource', file: 'file' };

function locatorText(skill: Skill, executorRoots: ReadonlyMap<string, string>): string {
  return `${LOCATOR_LABEL[skill.locator.kind]}: ${listedPackage(skill, executorRoots)}`;
}

function entryLine(skill: Skill, locator: string): string {
  const description = skill.description.replace(/\s+/g, ' ').trim();
  return `- ${skill.name}: ${description} (${locator})`;
}

const encoder = new TextEncoder();

/** Lays out a block, keeping whole skill lines while they fit in `MAX_CATALOG_BYTES`; lines past that are counted, never rendered. */
function bounded(intro: string, roots: readonly AliasedRoot[], lines: readonly (() => string)[], howTo: string | undefined): ContextFragment {
  // Orchestrator and custom packages are named whole: with no alias to explain, there is no table.
  const table = roots.length === 0 ? [] : ['### Skill roots', ...roots.map((root) => `- \`${root.alias}\` = \`${root.target}\``)];
  const head = [intro, ...table, '### Available skills'].join('\n');
  const tail = howTo ?? '';
  // Room for the note on what was left out.
  const markers = SKILLS_INSTRUCTIONS_FRAGMENT.open.length + SKILLS_INSTRUCTIONS_FRAGMENT.close.length + 2;
  let budget = MAX_CATALOG_BYTES - markers - encoder.encode(`${head}\n\n${tail}`).byteLength - 160;
  const kept: string[] = [];
  for (const render of lines) {
    const line = render();
    const cost = encoder.encode(line).byteLength + 1;
    if (cost > budget) break;
    budget -= cost;
    kept.push(line);
  }
  const omitted = lines.length - kept.length;
  const note = omitted === 0 ? [] : [`- (${omitted} more skills are installed but not listed here, to keep this list short; the user can still name one with \`$name\`.)`];
  return SKILLS_INSTRUCTIONS_FRAGMENT.render([head, ...kept, ...note, ...(tail === '' ? [] : [tail])].join('\n'));
}
