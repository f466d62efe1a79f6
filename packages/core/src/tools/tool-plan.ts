// The tool plan: which tools a thread offers, in which order, from its settings, its model, its
// environment and what extensions contribute. Pure, so the session computes it once and again only
// when an input changes. A bad extension tool is left out with a warning; the turn still runs.
import type { LeafToolHandler, NamespaceToolHandler, ToolHandler } from '@skein/extension-api';
import { CustomToolSpec, FunctionToolSpec, type HostedToolSpec } from '@skein/protocol';
import type { Config } from '@skein/config';
import type { ModelInfo } from '../model/model-catalog.js';
import { withEnvironmentParameter } from './environment-choice.js';
import { toolName } from './tool-router.js';
import { TOOL_SEARCH_SPEC } from './tool-search/tool-search.js';
import { webSearchSpec } from './web-search/web-search-spec.js';

/** Makes the built-in tools; each is built only when the plan offers it. */
export interface BuiltInToolFactory {
  execCommand(): ToolHandler;
  writeStdin(): ToolHandler;
  requestUserInput(): ToolHandler;
  /** The token budget's `get_context_remaining`. */
  getContextRemaining(): ToolHandler;
  /** `deferred_executor`'s `wait_for_environment`. */
  waitForEnvironment(): ToolHandler;
  /** `environmentChoice`: the patch may name its environment. */
  applyPatch(environmentChoice: boolean): ToolHandler;
  viewImage(detail: 'original' | 'high'): ToolHandler;
}

/** The tools one extension offers a thread. */
export interface ToolContribution {
  readonly extensionId: string;
  readonly tools: readonly ToolHandler[];
}

/** What the plan is computed from. */
export interface ToolPlanInputs {
  readonly features: Pick<Config['features'], 'isEnabled'>;
  readonly model: Pick<ModelInfo, 'supportsImageInput' | 'supportsImageDetailOriginal' | 'webSearchContentTypes'>;
  /** How the hosted web search is offered (undefined: not at all). */
  readonly webSearch?: Config['webSearch'] | undefined;
  /** Whether the thread has an environment to act on; without one no built-in tool is offered. */
  readonly hasEnvironment: boolean;
  /** Two or more environments are attached: calls may name the one they run in. */
  readonly environmentChoice?: boolean | undefined;
  readonly builtIns: BuiltInToolFactory;
  /** The `collaboration` namespace (multi-agent v2), offered after the built-in tools when the thread has one. */
  readonly collaboration?: NamespaceToolHandler | undefined;
  /** The goal tools, offered after the collaboration namespace when the `goals` feature is on. */
  readonly goals?: readonly ToolHandler[] | undefined;
  /** list_mcp_resources and its siblings, offered after write_stdin when the thread has MCP servers. */
  readonly mcpResources?: readonly ToolHandler[] | undefined;
  /** Deferred tools come from outside the plan too (MCP servers): tool_search is offered even with none deferred here. */
  readonly deferredSource?: boolean | undefined;
  readonly contributions: readonly ToolContribution[];
}

/** The ordered tools, and why any contributed tool was left out. */
export interface ToolPlan {
  readonly tools: readonly ToolHandler[];
  /** Tools the API runs itself (web search), offered after all the others as Codex orders them. */
  readonly hosted: readonly HostedToolSpec[];
  readonly warnings: readonly string[];
}

/** A name the Responses API accepts for a tool. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Built-in tools first (Codex's order), then each extension's, in installation order. */
export function planTools(inputs: ToolPlanInputs): ToolPlan {
  const tools = builtInTools(inputs);
  if (inputs.collaboration !== undefined) tools.push(inputs.collaboration);
  // Codex's order: the goal tools after the collaboration namespace, before any other tool.
  if (inputs.features.isEnabled('goals')) tools.push(...(inputs.goals ?? []));
  const taken = new Set(tools.map(toolName));
  const warnings: string[] = [];
  for (const { extensionId, tools: offered } of inputs.contributions) {
    for (const tool of offered as readonly (ToolHandler | null | undefined)[]) {
      // An extension in plain JavaScript may put anything in its list.
      if (typeof tool !== 'object' || tool === null) {
        warnings.push(`extension '${extensionId}' offered ${tool === null ? 'null' : typeof tool} as a tool; it is left out`);
        continue;
      }
      const problem = specProblem(tool) ?? (taken.has(toolName(tool)) ? `the name '${toolName(tool)}' is already taken` : undefined);
      if (problem !== undefined) {
        warnings.push(`extension '${extensionId}' tool '${describe(tool)}' is left out: ${problem}`);
        continue;
      }
      taken.add(toolName(tool));
      tools.push(tool);
    }
  }
  const search = inputs.webSearch === undefined ? undefined : webSearchSpec(inputs.webSearch, inputs.model.webSearchContentTypes);
  // Codex's order: tool_search after every other tool, then the hosted web search.
  const deferred = inputs.deferredSource === true || tools.some((tool) => tool.exposure === 'deferred');
  return { tools, hosted: [...(deferred ? [TOOL_SEARCH_SPEC] : []), ...(search === undefined ? [] : [search])], warnings };
}

function builtInTools(inputs: ToolPlanInputs): ToolHandler[] {
  if (!inputs.hasEnvironment) return [];
  const { features, model, builtIns } = inputs;
  const choice = inputs.environmentChoice === true;
  const offered = (tool: ToolHandler): ToolHandler => (choice && tool.kind === 'function' ? withEnvironmentParameter(tool) : tool);
  // Commands need the shell tool and unified exec (Codex's `shell_tool` / `unified_exec` features).
  const commandTools = features.isEnabled('shell_tool') && features.isEnabled('unified_exec');
  // Codex's order: exec_command, write_stdin, (MCP servers:) the resource tools, (deferred_executor:) wait_for_environment, request_user_input,
  // (token budget:) get_context_remaining, apply_patch, view_image.
  return [
    // write_stdin needs no choice: a session id belongs to the environment it was started in.
    ...(commandTools ? [offered(builtIns.execCommand()), builtIns.writeStdin()] : []),
    ...(inputs.mcpResources ?? []),
    ...(features.isEnabled('deferred_executor') ? [builtIns.waitForEnvironment()] : []),
    builtIns.requestUserInput(),
    ...(features.isEnabled('token_budget') ? [builtIns.getContextRemaining()] : []),
    builtIns.applyPatch(choice),
    ...(model.supportsImageInput && features.isEnabled('view_image') ? [offered(builtIns.viewImage(model.supportsImageDetailOriginal ? 'original' : 'high'))] : []),
  ];
}

/** Why a contributed tool cannot be offered, if it cannot. */
function specProblem(tool: ToolHandler): string | undefined {
  if (tool.kind === 'namespace') {
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) return `a namespace name must match ${TOOL_NAME.source}`;
    // An extension in plain JavaScript may send anything here.
    const inners = (tool as { readonly tools?: readonly LeafToolHandler[] }).tools ?? [];
    if (inners.length === 0) return 'the namespace holds no tools';
    const names = new Set<string>();
    for (const inner of inners) {
      const problem = leafProblem(inner);
      if (problem !== undefined) return `its tool '${describe(inner)}': ${problem}`;
      if (names.has(inner.spec.name)) return `two of its tools are named '${inner.spec.name}'`;
      names.add(inner.spec.name);
    }
    return undefined;
  }
  return leafProblem(tool);
}

function leafProblem(tool: Exclude<ToolHandler, { kind: 'namespace' }>): string | undefined {
  if (tool.kind !== 'function' && tool.kind !== 'custom') return `unknown tool kind '${String((tool as { kind?: unknown }).kind)}'`;
  if (typeof tool.handle !== 'function') return 'it has no handle function';
  const parsed = tool.kind === 'function' ? FunctionToolSpec.safeParse(tool.spec) : CustomToolSpec.safeParse(tool.spec);
  if (!parsed.success) return `its spec is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'spec'}: ${issue.message}`).join('; ')}`;
  if (!TOOL_NAME.test(tool.spec.name)) return `a tool name must match ${TOOL_NAME.source}`;
  if (tool.spec.type !== tool.kind) return `a ${tool.kind} tool needs a '${tool.kind}' spec, not '${String(tool.spec.type)}'`;
  return undefined;
}

/** A tool's name for a warning, even when an extension (plain JavaScript, say) sent a malformed one. */
function describe(tool: ToolHandler | Exclude<ToolHandler, { kind: 'namespace' }>): string {
  const loose = tool as { readonly name?: unknown; readonly spec?: { readonly name?: unknown } };
  const name = tool.kind === 'namespace' ? loose.name : loose.spec?.name;
  return typeof name === 'string' && name !== '' ? name : '(unnamed)';
}
