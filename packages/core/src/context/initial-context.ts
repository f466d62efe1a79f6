// The context a thread's first turn records, in Codex 0.171.0's order for direct-tool models: a
// developer message of policy parts (skills catalog, permissions, deferred-tools note), then a user
// message with AGENTS.md and <environment_context>. The base instructions come before it in every
// request but are kept apart from the history (see ThreadHistory.setInstructions).
import type { ResponseItem } from '@skein/protocol';
import { renderEnvironmentContext, renderEnvironmentContextUpdate, type EnvironmentContext } from './environment-context.js';
import { renderPermissionsInstructions, type PermissionsFacts } from './permissions-instructions.js';

/** Everything the initial context is made from. */
export interface InitialContextSources {
  readonly permissions: PermissionsFacts;
  /** Extra developer-message parts (skills catalog first, then the deferred-tools note), already rendered. */
  readonly developerParts?: readonly string[];
  /** The AGENTS.md fragment, already rendered (see agents-md.ts), if there are instructions. */
  readonly agentsMd: string | undefined;
  readonly environment: EnvironmentContext;
  /** The `<environments_instructions>` part (after the permissions), when environments may still be connecting. */
  readonly environmentsInstructions?: string | undefined;
  /** The `<tools>` part listing deferred tools (last in the developer message), when any are deferred. */
  readonly toolsNote?: string | undefined;
  /** The `<collaboration_mode>` part (after the permissions), for the models Codex sends it to. */
  readonly collaborationMode?: string | undefined;
}

const text = (value: string) => ({ type: 'input_text' as const, text: value });

/** The context items, without ids (the history assigns them when it records the items). */
export function buildInitialContext(sources: InitialContextSources): ResponseItem[] {
  const skillsAndTools = sources.developerParts ?? [];
  const [skills, ...rest] = skillsAndTools;
  const developerParts = [
    ...(skills === undefined ? [] : [skills]),
    renderPermissionsInstructions(sources.permissions),
    ...(sources.environmentsInstructions === undefined ? [] : [sources.environmentsInstructions]),
    ...(sources.collaborationMode === undefined ? [] : [sources.collaborationMode]),
    ...rest,
    ...(sources.toolsNote === undefined ? [] : [sources.toolsNote]),
  ];
  const { agentsMd } = sources;
  return [
    { type: 'message', role: 'developer', content: developerParts.map(text) },
    {
      type: 'message',
      role: 'user',
      content: [...(agentsMd === undefined ? [] : [text(agentsMd)]), text(renderEnvironmentContext(sources.environment))],
    },
  ];
}

/**
 * What a later turn must add when its settings differ from the previous turn's: a new
 * `<environment_context>` when the environment changed, a new permissions part when they changed.
 * Nothing at all when both are unchanged — the preamble is never sent twice.
 */
export function contextUpdates(
  previous: { readonly environment: EnvironmentContext; readonly permissions: PermissionsFacts },
  current: { readonly environment: EnvironmentContext; readonly permissions: PermissionsFacts },
): ResponseItem[] {
  const updates: ResponseItem[] = [];
  const permissionsText = renderPermissionsInstructions(current.permissions);
  if (permissionsText !== renderPermissionsInstructions(previous.permissions)) {
    updates.push({ type: 'message', role: 'developer', content: [text(permissionsText)] });
  }
  const environmentText = renderEnvironmentContextUpdate(previous.environment, current.environment);
  if (environmentText !== undefined) updates.push({ type: 'message', role: 'user', content: [text(environmentText)] });
  return updates;
}
