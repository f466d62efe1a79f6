// The extension itself: the catalog as context (and as a world-state section, so a changed catalog is
// sent again, and only then), the `<skill>` injection for skills a turn selects, and the `skills`
// tools when the thread has skills that are not local files.
import { readFile } from 'node:fs/promises';
import { defineExtension, type ContextFragment, type Extension, type ExtensionScopes, type ResponseItem, type ToolEnvironment } from '@skein/extension-api';
import { createHash } from 'node:crypto';
import { renderHostCatalog, renderPackageCatalog, SKILLS_INSTRUCTIONS_FRAGMENT } from './catalog/render-catalog.js';
import type { SkillProviderRequest } from './providers/skill-provider.js';
import { selectSkills } from './selection/select-skills.js';
import { skillMessage } from './selection/skill-injection.js';
import type { SkillsService, TurnCatalog } from './skills-service.js';
import type { Skill } from './skill.js';
import { skillsTools } from './tools/skills-tools.js';

/** The id hosts install the extension under. */
export const SKILLS_EXTENSION_ID = 'skills';
/** The world-state section that tracks the catalog. */
export const SKILLS_SECTION_ID = 'skills.catalog';

interface CatalogRequest extends ExtensionScopes {
  readonly threadId: string;
  readonly cwd: string;
  readonly init: SkillProviderRequest['init'];
  readonly environments: readonly ToolEnvironment[];
  warn(message: string): void;
}

/** What providers are told, from any contributor request. */
function providerRequest(request: CatalogRequest): SkillProviderRequest {
  return { threadId: request.threadId, cwd: request.cwd, init: request.init, environments: request.environments, session: request.session };
}

/** The extension over `service`. */
export function skillsExtension(service: SkillsService): Extension {
  // One catalog per turn, shared by the context, the world-state section and the selection.
  const catalogOf = (request: CatalogRequest): Promise<TurnCatalog> => {
    const cached = request.turn.get<Promise<TurnCatalog>>('catalog');
    if (cached !== undefined) return cached;
    const catalog = service.turnCatalog(providerRequest(request)).then((built) => {
      for (const warning of built.warnings) request.warn(warning);
      return built;
    });
    request.turn.set('catalog', catalog);
    return catalog;
  };
  // Rendered once per catalog object: the service hands back the same one while nothing changed.
  const rendered = new WeakMap<TurnCatalog, { readonly fragments: readonly ContextFragment[]; readonly digest: string }>();
  const renderedOf = (catalog: TurnCatalog) => {
    let existing = rendered.get(catalog);
    if (existing === undefined) {
      const fragments = [renderHostCatalog(catalog.skills), renderPackageCatalog(catalog.skills)].filter((fragment): fragment is ContextFragment => fragment !== undefined);
      existing = { fragments, digest: createHash('sha256').update(fragments.map((fragment) => fragment.text).join('\0')).digest('hex') };
      rendered.set(catalog, existing);
    }
    return existing;
  };
  const fragmentsOf = (catalog: TurnCatalog): ContextFragment[] => [...renderedOf(catalog).fragments];

  return defineExtension({
    id: SKILLS_EXTENSION_ID,
    fragments: [SKILLS_INSTRUCTIONS_FRAGMENT],
    context: {
      async threadFragments(request) {
        return fragmentsOf(await catalogOf(request));
      },
    },
    worldState: [
      {
        sectionId: SKILLS_SECTION_ID,
        async snapshot(request) {
          const { fragments, digest } = renderedOf(await catalogOf(request));
          return { digest, text: fragments.map((fragment) => fragment.text).join('\n') };
        },
        // The first snapshot rides with the initial context (or a compacted window's), which carries
        // the catalog already; after that, a changed catalog is sent whole.
        renderChange(previous, current) {
          if (previous === undefined || typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
          const text = (current as { readonly text?: unknown }).text;
          return typeof text === 'string' && text !== '' ? text : undefined;
        },
      },
    ],
    turnInput: {
      async contributeTurnInput(request) {
        const catalog = await catalogOf(request);
        const items: ResponseItem[] = [];
        for (const skill of selectSkills(request.input, catalog.skills)) {
          try {
            items.push(await injectedSkill(service, skill, providerRequest(request)));
          } catch (error) {
            request.warn(`skill '${skill.name}' could not be read: ${(error as Error).message}`);
          }
        }
        return items;
      },
    },
    tools: {
      async tools(request) {
        const hasPackages = request.init.selectedCapabilityRoots.length > 0 || (await service.offersPackages(request.cwd));
        return hasPackages ? [skillsTools(service, providerRequest(request))] : [];
      },
    },
  });
}

/** A selected skill's `<skill>` message, its SKILL.md read through whoever listed it. */
async function injectedSkill(service: SkillsService, skill: Skill, request: SkillProviderRequest): Promise<ResponseItem> {
  if (skill.locator.kind === 'file') return skillMessage(skill.name, skill.locator.path, await readFile(skill.locator.path, 'utf8'));
  const provider = service.providerFor(skill);
  if (provider === undefined) throw new Error(`no provider serves ${skill.locator.package}`);
  const read = await provider.read(skill, skill.locator.mainResource, request);
  return skillMessage(skill.name, skill.locator.mainResource, read.contents);
}
