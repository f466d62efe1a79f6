// Finds the hooks of a thread's config layers, as Codex 0.171.0 lists them: each layer's `[hooks]`
// table and the hooks.json beside its file, every handler with its key
// (`<file>:<event>:<group>:<handler>`), hash, trust status and listing order. Trust is read only from
// the user's own files (system and user config, `-c`): a project can never trust its own hooks.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandHandlerConfig, DEFAULT_HOOK_TIMEOUT_SEC, HookEventsConfig, HooksJsonFile, HookStateTable, MatcherGroupConfig, McpToolHandlerConfig, UNSUPPORTED_HANDLER_TYPES } from './hook-config.js';
import { eventOfConfigName, eventOrder, snakeName, usesMatcher } from './hook-events.js';
import { hookHash, trustStatus, type HookDefinition, type HookHandler, type HookTrustStatus } from './hook-trust.js';

/** Where a hook was configured, as `hooks/list` says it. */
export type HookSource = 'system' | 'user' | 'project' | 'sessionFlags' | 'unknown';

/** One config layer, as the hooks see it. */
export interface HookLayer {
  readonly source: Exclude<HookSource, 'unknown'>;
  /** The layer's config.toml (absent for `-c` flags); its hooks.json is looked for beside it. */
  readonly file: string | undefined;
  readonly table: Readonly<Record<string, unknown>>;
  /**
   * A project on an executor: its hooks.json as read there (path and text, so nothing is read from
   * this machine), and the environment its command hooks run on.
   */
  readonly environment?: { readonly id: string; readonly hooksJson: { readonly path: string; readonly text: string } } | undefined;
}

/** A configured hook: its definition (`matcher` null when absent, and for events that read none) and where it stands. */
export interface ConfiguredHook extends HookDefinition {
  readonly key: string;
  readonly source: HookSource;
  readonly sourcePath: string;
  readonly displayOrder: number;
  readonly currentHash: string;
  readonly trustStatus: HookTrustStatus;
  readonly enabled: boolean;
  /** The executor a project's hook was found on, where its command runs; null for this machine. */
  readonly environmentId: string | null;
}

/** A file's problem, as `hooks/list`'s `errors` holds it. */
export interface HookError {
  readonly path: string;
  readonly message: string;
}

/** The hooks of a set of layers. */
export interface HookCatalog {
  readonly hooks: readonly ConfiguredHook[];
  readonly warnings: readonly string[];
  readonly errors: readonly HookError[];
}

/** Reads the layers' hooks (and their hooks.json files). Never throws for a bad file: it becomes an error entry. */
export async function discoverHooks(layers: readonly HookLayer[]): Promise<HookCatalog> {
  const state = trustState(layers);
  const found: Omit<ConfiguredHook, 'displayOrder'>[] = [];
  const warnings: string[] = [];
  const errors: HookError[] = [];
  for (const layer of layers) {
    const tableHooks = layer.table.hooks;
    if (tableHooks !== undefined && layer.file !== undefined) {
      const { state: _state, ...events } = (typeof tableHooks === 'object' && tableHooks !== null ? tableHooks : {}) as Record<string, unknown>;
      found.push(...readEvents(events, layer, layer.file, state, warnings, errors));
    }
    const remote = layer.environment?.hooksJson;
    if (remote !== undefined) {
      const json = parseHooksJson(remote.path, remote.text, errors);
      if (json !== undefined) found.push(...readEvents(json, layer, remote.path, state, warnings, errors));
      continue;
    }
    if (layer.file === undefined) continue;
    const jsonPath = path.join(path.dirname(layer.file), 'hooks.json');
    const json = await readHooksJson(jsonPath, errors);
    if (json !== undefined) found.push(...readEvents(json, layer, jsonPath, state, warnings, errors));
  }
  // Codex lists by layer, then event, then place in the file.
  const ordered = found.map((hook, index) => ({ hook, index })).sort((left, right) => layerRank(left.hook) - layerRank(right.hook) || eventOrder(left.hook.event) - eventOrder(right.hook.event) || left.index - right.index);
  return { hooks: ordered.map(({ hook }, displayOrder) => ({ ...hook, displayOrder })), warnings, errors };
}

const LAYER_RANK: Record<HookSource, number> = { system: 0, user: 1, project: 2, sessionFlags: 3, unknown: 4 };
const layerRank = (hook: Omit<ConfiguredHook, 'displayOrder'>) => LAYER_RANK[hook.source];

/** `[hooks.state]` from the layers the user owns; a project's own state is never read. */
function trustState(layers: readonly HookLayer[]): HookStateTable {
  const state: Record<string, HookStateTable[string]> = {};
  for (const layer of layers) {
    if (layer.source === 'project') continue;
    const hooks = layer.table.hooks as { state?: unknown } | undefined;
    const parsed = HookStateTable.safeParse(hooks?.state ?? {});
    if (parsed.success) Object.assign(state, parsed.data);
  }
  return state;
}

async function readHooksJson(file: string, errors: HookError[]): Promise<Record<string, unknown> | undefined> {
  // Discovery runs before every turn and most config folders have no hooks.json: absence is asked
  // synchronously, without an ENOENT error built or a thread-pool hop. Any other failure is left
  // to the read below, which reports it.
  if (isAbsent(file)) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') errors.push({ path: file, message: `could not read: ${(error as Error).message}` });
    return undefined;
  }
  return parseHooksJson(file, text, errors);
}

function isAbsent(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

function parseHooksJson(file: string, text: string, errors: HookError[]): Record<string, unknown> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    errors.push({ path: file, message: `not valid JSON: ${(error as Error).message}` });
    return undefined;
  }
  const parsed = HooksJsonFile.safeParse(json);
  if (!parsed.success) {
    errors.push({ path: file, message: 'expected {"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}' });
    return undefined;
  }
  return parsed.data.hooks;
}

function readEvents(
  events: Readonly<Record<string, unknown>>,
  layer: HookLayer,
  file: string,
  state: HookStateTable,
  warnings: string[],
  errors: HookError[],
): Omit<ConfiguredHook, 'displayOrder'>[] {
  const hooks: Omit<ConfiguredHook, 'displayOrder'>[] = [];
  const table = HookEventsConfig.safeParse(events);
  if (!table.success) return hooks;
  for (const [eventKey, groups] of Object.entries(table.data)) {
    const info = eventOfConfigName(eventKey);
    if (info === undefined) {
      warnings.push(`${file}: hooks.${eventKey}: not a hook event; it is ignored (events: PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, …)`);
      continue;
    }
    if (!Array.isArray(groups)) {
      errors.push({ path: file, message: `hooks.${eventKey}: expected a list of matcher groups` });
      continue;
    }
    for (const [groupIndex, rawGroup] of groups.entries()) {
      const group = MatcherGroupConfig.safeParse(rawGroup);
      if (!group.success) {
        errors.push({ path: file, message: `hooks.${eventKey}[${groupIndex}]: expected {matcher?, hooks: [...]}` });
        continue;
      }
      const matcher = info.usesMatcher ? (group.data.matcher ?? null) : null;
      if (matcher !== null && !isValidMatcher(matcher)) {
        errors.push({ path: file, message: `hooks.${eventKey}[${groupIndex}].matcher: '${matcher}' is not a valid regular expression; the group is skipped` });
        continue;
      }
      for (const [handlerIndex, rawHandler] of group.data.hooks.entries()) {
        const where = `hooks.${eventKey}[${groupIndex}].hooks[${handlerIndex}]`;
        const type = (rawHandler as { type?: unknown } | null)?.type;
        if (typeof type === 'string' && (UNSUPPORTED_HANDLER_TYPES as readonly string[]).includes(type)) {
          // Codex's wording (probed), so a user reads the same in either tool.
          warnings.push(`skipping ${type} hook in ${file}: ${type} hooks are not supported yet`);
          continue;
        }
        const parsed = readHandler(rawHandler);
        if (typeof parsed === 'string') {
          if (parsed === EMPTY_MCP_TOOL) warnings.push(`skipping MCP tool hook in ${file}: server and tool must not be empty`);
          else errors.push({ path: file, message: `${where}: ${parsed}` });
          continue;
        }
        const definition: HookDefinition = { event: info.name, matcher, ...parsed };
        // An executor's file is named with its environment: the same path here or on another executor is another file, trusted apart.
        const place = layer.environment === undefined ? file : `environment:${layer.environment.id}:${file}`;
        const key = `${place}:${snakeName(info.name)}:${groupIndex}:${handlerIndex}`;
        const currentHash = hookHash(definition);
        const environmentId = layer.environment?.id ?? null;
        hooks.push({ ...definition, key, source: layer.source, sourcePath: file, currentHash, trustStatus: trustStatus(state, key, currentHash), enabled: state[key]?.enabled ?? true, environmentId });
      }
    }
  }
  return hooks;
}

const EMPTY_MCP_TOOL = 'server and tool must not be empty';

/** A handler's definition, or why it is not one. */
function readHandler(raw: unknown): Pick<HookDefinition, 'handler' | 'timeoutSec' | 'statusMessage'> | string {
  if ((raw as { type?: unknown } | null)?.type === 'mcp_tool') {
    const mcp = McpToolHandlerConfig.safeParse(raw);
    if (!mcp.success) return mcp.error.issues[0]?.message ?? 'invalid handler';
    if (mcp.data.server.trim() === '' || mcp.data.tool.trim() === '') return EMPTY_MCP_TOOL;
    const handler: HookHandler = { type: 'mcpTool', server: mcp.data.server, tool: mcp.data.tool, input: mcp.data.input ?? {} };
    return { handler, timeoutSec: mcp.data.timeout ?? mcp.data.timeoutSec ?? DEFAULT_HOOK_TIMEOUT_SEC, statusMessage: mcp.data.statusMessage ?? null };
  }
  const command = CommandHandlerConfig.safeParse(raw);
  if (!command.success) return command.error.issues[0]?.message ?? 'invalid handler';
  return {
    handler: { type: 'command', command: command.data.command, async: command.data.async ?? false },
    timeoutSec: command.data.timeout ?? command.data.timeoutSec ?? DEFAULT_HOOK_TIMEOUT_SEC,
    statusMessage: command.data.statusMessage ?? null,
  };
}

/** Whether a matcher compiles; `*` and the empty string match every tool. */
export function isValidMatcher(matcher: string): boolean {
  if (matcher === '' || matcher === '*') return true;
  try {
    new RegExp(matcher);
    return true;
  } catch {
    return false;
  }
}

/** Whether `matcher` selects `value` (a tool's name): the whole name must match. One that does not compile selects nothing. */
export function matcherSelects(matcher: string | null | undefined, value: string | undefined): boolean {
  if (matcher === null || matcher === undefined || matcher === '' || matcher === '*') return true;
  if (value === undefined || !isValidMatcher(matcher)) return false;
  return new RegExp(`^(?:${matcher})$`).test(value);
}

export { usesMatcher };
