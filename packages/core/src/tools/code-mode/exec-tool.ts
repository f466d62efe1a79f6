// `exec`: runs the model's JavaScript as a cell and answers with what it printed, or, when it runs
// past its yield time, with `Script running with cell ID <n>` and the output so far (`wait` picks it
// up). An interrupt of the turn ends the cell.
import type { CustomToolHandler } from '@skein/extension-api';
import { CellBinding } from './cell-binding.js';
import { cellOutput } from './cell-output.js';
import type { CodeModeCells } from './code-mode-cells.js';
import { EXEC_GRAMMAR, parseExecInput } from './exec-input.js';
import { cellTools, type NestedTool } from './nested-tools.js';
import { toolDeclaration } from './tool-declaration.js';

export interface ExecToolOptions {
  readonly cells: CodeModeCells;
  /** The tools cells may call, as they are when a cell starts (MCP servers come and go). */
  readonly nested: () => readonly NestedTool[];
  /** A cell's notify(text) for the exec call `callId`. */
  readonly notify: (callId: string, text: string) => void;
  /** The turn running now: a cell's nested calls run only under a call of the running turn. */
  readonly activeTurnId: () => string | undefined;
  /** How long a cell runs before `exec` answers that it still runs, unless its pragma says (`[code_mode] default_exec_yield_time_ms`). */
  readonly defaultYieldMs: number;
}

const preamble = (defaultYieldMs: number) => [
  'Runs JavaScript (an ES module with top-level await) in an isolated sandbox and answers with what it printed.',
  'Call the tools below as `await tools.<name>(args)`; `ALL_TOOLS` lists every tool with its description.',
  'Print with `text(value)` (non-strings as JSON) and `image(url)`; keep values for later cells with `store(key, value)` / `load(key)`;',
  '`setTimeout`, `exit()` and `yield_control()` (answer now, keep running) are there too. There is no filesystem, network or `process`: use the tools.',
  `A first line \`// @exec: {"yield_time_ms": ${defaultYieldMs}, "max_output_tokens": 10000}\` sets how long to wait before answering that the cell still runs (then call \`wait\` with its cell ID) and how much output to keep.`,
].join('\n');

/** The description: what a cell may do, and each listed tool's declaration. */
export function execDescription(nested: readonly NestedTool[], defaultYieldMs: number): string {
  const declarations = nested.filter((entry) => entry.listed).map((entry) => `  ${toolDeclaration(entry.name, entry.tool, entry.maxSchemaBytes)}`);
  return `${preamble(defaultYieldMs)}\n\n\`\`\`ts\ndeclare const tools: {\n${declarations.join('\n')}\n};\n\`\`\``;
}

export function execTool(options: ExecToolOptions, description: string): CustomToolHandler {
  return {
    kind: 'custom',
    spec: { type: 'custom', name: 'exec', description, format: { type: 'grammar', syntax: 'lark', definition: EXEC_GRAMMAR } },
    async handle(input, context) {
      const parsed = parseExecInput(input, options.defaultYieldMs);
      if ('problem' in parsed) return { output: parsed.problem, success: false };
      const full = options.cells.refusal();
      if (full !== undefined) return { output: full, success: false };
      const nested = options.nested();
      const run = options.cells.start(parsed.source, (binding) => cellTools(nested, binding), new CellBinding(context, options.activeTurnId), (text) => options.notify(context.callId, text));
      // The turn's interrupt ends the cell, whether exec is still waiting on it or it runs on.
      context.signal.addEventListener('abort', () => void run.terminate(), { once: true });
      const report = await run.report(parsed.yieldTimeMs, context.signal);
      options.cells.settled(run);
      return { output: cellOutput(report, run.id, parsed.maxOutputTokens), success: report.status !== 'failed' };
    },
  };
}
