// The tools of a code-mode model (Codex's `tool_mode: code_mode_only`): the model is offered
// `additional_tools` — `functions` (exec, wait, request_user_input and, for a thread that is not a
// sub-agent, the two `_async` tools), `clock` (sleep) and, in an agent tree, `collaboration` — and
// every other tool of the plan is called from inside cells.
import type { LeafToolHandler, NamespaceToolHandler, ToolHandler } from '@skein/extension-api';
import type { ToolSpec } from '@skein/protocol';
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
  readonly additionalTools: readonly ToolSpec[];
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
  /** How the `_async` tools show their messages; none for a sub-agent, which has no user to reach. */
  readonly userMessages?: AsyncUserToolsBinding | undefined;
}

const FUNCTIONS_DESCRIPTION = 'Run code, wait on it, and ask the user.';

/** The names code mode offers itself: a planned tool of the same name would shadow one. */
const RESERVED = new Set(['exec', 'wait', 'clock']);

export function codeModePlan(planned: readonly ToolHandler[], options: CodeModePlanOptions): CodeModePlan {
  const requestUserInput = planned.find((tool): tool is LeafToolHandler => tool.kind !== 'namespace' && tool.spec.name === 'request_user_input');
  const collaboration = planned.find((tool): tool is NamespaceToolHandler => tool.kind === 'namespace' && tool.name === 'collaboration');
  const warnings = planned.filter((tool) => RESERVED.has(toolName(tool))).map((tool) => `the tool '${toolName(tool)}' is left out in code mode: code mode's own tool has that name`);
  const inner = planned.filter((tool) => tool !== requestUserInput && tool !== collaboration && !RESERVED.has(toolName(tool)));
  const clock = clockTools(options.now);
  // Of the clock, cells call only curr_time; sleep is the model's.
  const cellClock: NamespaceToolHandler = { ...clock, tools: clock.tools.filter((tool) => tool.spec.name === 'curr_time') };
  const nested = (): readonly NestedTool[] => nestedTools([...inner, ...options.dynamic(), cellClock]);
  const functions: LeafToolHandler[] = [execTool({ cells: options.cells, nested, notify: options.notify }, execDescription(nested())), waitTool(options.cells), ...(requestUserInput === undefined ? [] : [requestUserInput]), ...(options.userMessages === undefined ? [] : asyncUserTools(options.userMessages))];
  const namespace = (name: string, description: string, tools: readonly LeafToolHandler[]): ToolSpec => ({ type: 'namespace', name, description, tools: tools.filter((tool) => (tool.exposure ?? 'direct') === 'direct').map((tool) => tool.spec) });
  return {
    warnings,
    handlers: [...functions, clock, ...(collaboration === undefined ? [] : [collaboration]), ...inner],
    additionalTools: [
      namespace('functions', FUNCTIONS_DESCRIPTION, functions),
      namespace('clock', clock.description, clock.tools),
      ...(collaboration === undefined ? [] : [namespace('collaboration', collaboration.description, collaboration.tools)]),
    ],
  };
}
