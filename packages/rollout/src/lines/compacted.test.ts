import { describe, expect, it } from 'vitest';
import { Compacted, compactedWriteProblem, compactionWindow } from './compacted.js';

const WINDOW = '01a22c4e-0203-7f51-a38a-d99c4dbdd200';
const FIRST = '01a22c4d-ffd8-7221-8a5a-a6acc7ca2691';

describe('Compacted', () => {
  it('reads a Codex 0.171.0 compaction with its window ids and replacement history', () => {
    const compacted = Compacted.parse({
      message: 'summary',
      replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      retained_context: { incomplete: false },
      window_number: 1,
      first_window_id: FIRST,
      previous_window_id: FIRST,
      window_id: WINDOW,
    });
    expect(compactionWindow(compacted)).toEqual({ windowNumber: 1, windowId: WINDOW, firstWindowId: FIRST, previousWindowId: FIRST });
    expect(compacted['retained_context']).toEqual({ incomplete: false });
  });

  it('reads a legacy numeric window_id as the window number', () => {
    const compacted = Compacted.parse({ message: 'summary', window_id: 3 });
    expect(compactionWindow(compacted)).toEqual({ windowNumber: 3 });
  });

  it('lets a replacement history hold item types it does not know', () => {
    const compacted = Compacted.parse({ message: 's', replacement_history: [{ type: 'future_item', payload: 1 }] });
    expect(compacted.replacement_history).toEqual([{ type: 'future_item', payload: 1 }]);
  });

  it('requires UUIDv7 window ids for compactions Skein writes', () => {
    expect(compactedWriteProblem(Compacted.parse({ message: 's', window_id: WINDOW }))).toBeUndefined();
    expect(compactedWriteProblem(Compacted.parse({ message: 's', window_id: 2 }))).toMatch(/legacy form/);
    expect(compactedWriteProblem(Compacted.parse({ message: 's', window_id: '5973b6c0-94b8-487b-a530-2aeb6098ae0e' }))).toMatch(/not a UUIDv7/);
  });
});
