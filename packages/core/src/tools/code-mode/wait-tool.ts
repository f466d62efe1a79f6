// `wait`: picks up a cell that answered `Script running with cell ID <n>`: waits for more of it (or
// ends it with `terminate`) and answers in exec's form with the output since the last answer.
import type { FunctionToolHandler } from '@skein/extension-api';
import * as z from 'zod';
import { cellFailure, cellOutput } from './cell-output.js';
import type { CodeModeCells } from './code-mode-cells.js';
import { DEFAULT_CELL_OUTPUT_TOKENS, DEFAULT_WAIT_YIELD_MS, MAX_CELL_OUTPUT_TOKENS, MAX_YIELD_MS } from './exec-input.js';

export const WaitArgs = z.object({
  cell_id: z.union([z.string(), z.number()]).transform(String),
  yield_time_ms: z.number().int().min(0).max(MAX_YIELD_MS).optional(),
  max_tokens: z.number().int().min(1).max(MAX_CELL_OUTPUT_TOKENS).optional(),
  terminate: z.boolean().optional(),
});
export type WaitArgs = z.infer<typeof WaitArgs>;

const describe = (text: string) => ({ type: 'string', description: text });

export function waitTool(cells: CodeModeCells): FunctionToolHandler<WaitArgs> {
  return {
    kind: 'function',
    spec: {
      type: 'function',
      name: 'wait',
      description: 'Waits for an exec cell that is still running and answers with its output since the last answer; `terminate: true` ends it instead.',
      strict: false,
      parameters: {
        type: 'object',
        properties: {
          cell_id: describe('The cell ID exec answered with.'),
          max_tokens: { type: 'number', description: 'The output tokens to keep (default 10000).' },
          terminate: { type: 'boolean', description: 'End the cell rather than wait for it.' },
          yield_time_ms: { type: 'number', description: 'How long to wait before answering again (default 10000).' },
        },
        required: ['cell_id'],
        additionalProperties: false,
      },
    },
    arguments: WaitArgs,
    async handle(args, context) {
      const id = /^\d+$/.test(args.cell_id) ? Number(args.cell_id) : Number.NaN;
      const run = cells.find(id);
      if (run === undefined) return { output: cellFailure(`exec cell ${args.cell_id} not found`), success: false };
      // From here on the cell's nested calls run under this call (its turn's settings and sandbox).
      cells.rebind(run.id, context);
      if (args.terminate === true) await run.terminate();
      const report = await run.report(args.terminate === true ? 0 : (args.yield_time_ms ?? DEFAULT_WAIT_YIELD_MS), context.signal);
      cells.settled(run);
      return { output: cellOutput(report, run.id, args.max_tokens ?? DEFAULT_CELL_OUTPUT_TOKENS), success: report.status !== 'failed' };
    },
  };
}
