import { describe, expect, it } from 'vitest';
import { HumanOutput, MAX_SHOWN_OUTPUT_LINES, useColor } from './human-output.js';

describe('useColor', () => {
  it('styles a terminal in auto mode unless NO_COLOR is set or TERM is dumb; always and never are absolute', () => {
    expect(useColor('auto', true, {})).toBe(true);
    expect(useColor('auto', false, {})).toBe(false);
    expect(useColor('auto', true, { NO_COLOR: '1' })).toBe(false);
    expect(useColor('auto', true, { TERM: 'dumb' })).toBe(false);
    expect(useColor('always', false, { NO_COLOR: '1' })).toBe(true);
    expect(useColor('never', true, {})).toBe(false);
  });
});

describe('HumanOutput', () => {
  it('shows the first lines of a long command output and counts the rest', () => {
    let text = '';
    const output = new HumanOutput({ write: (chunk) => (text += chunk), color: false });
    const lines = Array.from({ length: MAX_SHOWN_OUTPUT_LINES + 5 }, (_, index) => `line ${index}`);
    output.event({
      type: 'commandCompleted',
      turnId: 't',
      callId: 'c',
      command: 'seq',
      argv: ['seq'],
      cwd: '/work',
      processId: '1001',
      exitCode: null,
      aggregatedOutput: `${lines.join('\n')}\n`,
      durationMs: 12.4,
      source: 'agent',
    });
    expect(text).toBe(['ended without an exit code in 12 ms', ...lines.slice(0, MAX_SHOWN_OUTPUT_LINES), '... 5 more lines', ''].join('\n'));
  });
});
