import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecEvent } from './exec-events.js';

describe('ExecEvent', () => {
  it('reads every exec --json line Codex 0.171.0 printed in the recorded scenarios', () => {
    const lines = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'test', 'fixtures', 'codex-exec-events.json'), 'utf8')) as unknown[];
    expect(lines.length).toBeGreaterThan(10);
    const types = new Set<string>();
    for (const line of lines) {
      const event = ExecEvent.parse(line);
      types.add(event.type === 'item.started' || event.type === 'item.completed' ? `${event.type}:${event.item.type}` : event.type);
      expect(event).toEqual(line);
    }
    expect([...types].sort()).toEqual([
      'item.completed:agent_message',
      'item.completed:command_execution',
      'item.completed:file_change',
      'item.started:command_execution',
      'item.started:file_change',
      'thread.started',
      'turn.completed',
      'turn.started',
    ]);
  });

  it('rejects unknown event and item types', () => {
    expect(ExecEvent.safeParse({ type: 'turn.paused' }).success).toBe(false);
    expect(ExecEvent.safeParse({ type: 'item.completed', item: { id: 'item_0', type: 'telepathy' } }).success).toBe(false);
  });
});
