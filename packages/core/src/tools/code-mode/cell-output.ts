// What `exec` and `wait` answer the model, in Codex 0.171.0's form (probed): a header
// (`Script completed|failed|terminated` or `Script running with cell ID <n>`, the wall time to a
// tenth of a second, `Output:`), then one item per text() or image(), then the error of a failed
// cell. A header alone is sent as plain text. Output over the budget is cut in the middle.
import type { CellOutputItem, CellReport } from '@skein/code-mode';
import type { ToolOutputBody } from '@skein/protocol';
import { approximateTokens, truncateMiddle } from '../../history/truncate-output.js';

type OutputPart = Exclude<ToolOutputBody, string>[number];

export function cellOutput(report: CellReport, cellId: number, maxTokens: number): ToolOutputBody {
  const header = `${headline(report, cellId)}\nWall time ${(report.wallTimeMs / 1000).toFixed(1)} seconds\nOutput:\n`;
  const parts: OutputPart[] = [...withinBudget(report.items, maxTokens).map(toPart)];
  if (report.status === 'failed' && report.error !== undefined) parts.push({ type: 'input_text', text: `Script error:\n${report.error}` });
  return parts.length === 0 ? header : [{ type: 'input_text', text: header }, ...parts];
}

/** A call the cell machinery refused before any cell ran (an unknown cell id): a failed script's answer. */
export function cellFailure(message: string): ToolOutputBody {
  return [
    { type: 'input_text', text: 'Script failed\nWall time 0.0 seconds\nOutput:\n' },
    { type: 'input_text', text: `Script error:\n${message}` },
  ];
}

function headline(report: CellReport, cellId: number): string {
  switch (report.status) {
    case 'running':
      return `Script running with cell ID ${cellId}`;
    case 'completed':
      return 'Script completed';
    case 'failed':
      return 'Script failed';
    case 'terminated':
      return 'Script terminated';
  }
}

/** The texts as they are, or, over `maxTokens`, joined and cut in the middle behind a warning (images kept). */
function withinBudget(items: readonly CellOutputItem[], maxTokens: number): readonly CellOutputItem[] {
  const texts = items.flatMap((item) => (item.type === 'input_text' ? [item.text] : []));
  const joined = texts.join('\n');
  const total = approximateTokens(joined);
  if (total <= maxTokens) return items;
  const lines = joined.split('\n').length;
  const text = `Warning: truncated output (original token count: ${total})\nTotal output lines: ${lines}\n\n${truncateMiddle(joined, maxTokens)}`;
  return [{ type: 'input_text', text }, ...items.filter((item) => item.type === 'input_image')];
}

function toPart(item: CellOutputItem): OutputPart {
  return item.type === 'input_text' ? { type: 'input_text', text: item.text } : { type: 'input_image', image_url: item.image_url, ...(item.detail === undefined ? {} : { detail: item.detail }) };
}
