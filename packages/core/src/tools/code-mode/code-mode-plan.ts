// The tools of a code-mode model (Codex's `tool_mode: code_mode_only`): the model is offered
// `additional_tools` — `functions` (exec, wait, request_user_input and, for a thread that is not a
// sub-agent, the two `_async` tools), `clock` (sleep), in an agent tree `collaboration`, and the
// namespaces `[code_mode] direct_only_tool_namespaces` names — and every other tool of the plan,
// but those of `excluded_tool_namespaces`, is called from inside cells.
import type { Config } from '@skein/config';
import type { LeafToolHandler, NamespaceToolHandler, ToolHandler } from '@skein/extension-api';
import type { NamespaceToolSpec, ToolSpec } from '@skein/protocol';
import { asyncUserTools, type AsyncUserToolsBinding } from './async-user-tools.js';
import { clockTools } from './clock-tools.js';
import type { CodeModeCells } from './code-mode-cells.js';
import { execDescription, execTool } from './exec-tool.js';
import { toolName } from '../tool-router.js';
import { nestedTools, type NestedTool } from './nested-tools.js';
import { waitTool } from './wait-tool.js';

/** The router's handlers, and the namespaces of the request's `additional_tools` item. */
export interface CodeModePlan {
  readonly handlers: readonly ToolHandler[];
  /** The namespaces as they are now: cells' tools and direct-only namespaces follow the MCP servers. */
  readonly additionalTools: () => readonly ToolSpec[];
  /** Tools the plan left out, and why. */
  readonly warnings: readonly string[];
}

export interface CodeModePlanOptions {
  readonly cells: CodeModeCells;
  readonly now: () => number;
  /** Tools that come and go (MCP servers' namespaces): nested too, as they are when a cell starts. */
  readonly dynamic: () => readonly ToolHandler[];
  /** A cell's notify(text), for the exec call `callId`. */
  readonly notify: (callId: string, text: string) => void;
  /** `[code_mode]`. */
  readonly settings: Config['codeMode'];
  /** The turn running now (a cell's nested calls run only under a call of the running turn). */
  readonly activeTurnId: () => string | undefined;
  /** How the `_async` tools show their messages; none for a sub-agent, which has no user to reach. */
  readonly userMessages?: AsyncUserToolsBinding | undefined;
}

const FUNCTIONS_DESCRIPTION = 'Run code, wait on it, and ask the user.';

/** The names code mode offers itself: a planned tool of the same name would shadow one. */
const RESERVED = new Set(['exec', 'wait', 'clock']);

export function codeModePlan(planned: readonly ToolHandler[], options: CodeModePlanOptions): CodeModePlan {
  const { settings } = options;
  const requestUserInput = planned.find((tool): tool is LeafToolHandler => tool.kind !== 'namespace' && tool.spec.name === 'request_user_input');
  const collaboration = planned.find((tool): tool is NamespaceToolHandler => tool.kind === 'namespace' && tool.name === 'collaboration');
  const warnings = planned.filter((tool) => RESERVED.has(toolName(tool))).map((tool) => `the tool '${toolName(tool)}' is left out in code mode: code mode's own tool has that name`);
  const excluded = (tool: ToolHandler) => tool.kind === 'namespace' && settings.excludedToolNamespaces.includes(tool.name);
  const directOnly = (tool: ToolHandler): tool is NamespaceToolHandler => tool.kind === 'namespace' && settings.directOnlyToolNamespaces.includes(tool.name);
  const usable = planned.filter((tool) => tool !== requestUserInput && tool !== collaboration && !RESERVED.has(toolName(tool)) && !excluded(tool));
  const inner = usable.filter((tool) => !directOnly(tool));
  const clock = clockTools(options.now);
  // Of the clock, cells call only curr_time; sleep is the model's.
  const cellClock: NamespaceToolHandler = { ...clock, tools: clock.tools.filter((tool) => tool.spec.name === 'curr_time') };
  const nested = (): readonly NestedTool[] => nestedTools([...inner, ...options.dynamic().filter((tool) => !excluded(tool) && !directOnly(tool)), cellClock], settings.toolInputSchemaMaxBytes);
  const description = () => execDescription(nested(), settings.defaultExecYieldTimeMs);
  const exec = execTool({ cells: options.cells, nested, notify: options.notify, defaultYieldMs: settings.defaultExecYieldTimeMs, activeTurnId: options.activeTurnId }, description());
  const functions: LeafToolHandler[] = [exec, waitTool(options.cells), ...(requestUserInput === undefined ? [] : [requestUserInput]), ...(options.userMessages === undefined ? [] : asyncUserTools(options.userMessages))];
  const namespace = (name: string, text: string, tools: readonly LeafToolHandler[]): NamespaceToolSpec => ({ type: 'namespace', name, description: text, tools: tools.filter((tool) => (tool.exposure ?? 'direct') === 'direct').map((tool) => tool.spec) });
  return {
    warnings,
    handlers: [...functions, clock, ...(collaboration === undefined ? [] : [collaboration]), ...usable],
    additionalTools: () => {
      // exec's description lists the cells' tools as they are now.
      const offered = namespace('functions', FUNCTIONS_DESCRIPTION, functions);
      return [
        { ...offered, tools: offered.tools.map((spec) => (spec.name === 'exec' ? { ...spec, description: description() } : spec)) },
        namespace('clock', clock.description, clock.tools),
        ...(collaboration === undefined ? [] : [namespace('collaboration', collaboration.description, collaboration.tools)]),
        ...[...usable.filter(directOnly), ...options.dynamic().filter(directOnly)].map((tool) => namespace(tool.name, tool.description, tool.tools)),
      ];
    },
  };
}
