import { describe, expect, it } from 'vitest';
import { budgetOutput, formatExecResponse, newChunkId } from './exec-output.js';

describe('formatExecResponse', () => {
  it('renders an exited command in Codex order', () => {
    const text = formatExecResponse({ chunkId: 'a1b2c3', wallTimeMs: 12.3, exitCode: 0, sessionId: null, originalTokenCount: 1, output: 'hi\n' });
    expect(text).toBe('Chunk ID: a1b2c3\nWall time: 0.0123 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhi\n');
  });

  it('names the session of a running command in place of the exit code', () => {
    const text = formatExecResponse({ chunkId: 'ffffff', wallTimeMs: 500, exitCode: null, sessionId: 61363, originalTokenCount: 0, output: '' });
    expect(text).toBe('Chunk ID: ffffff\nWall time: 0.5000 seconds\nProcess running with session ID 61363\nOriginal token count: 0\nOutput:\n');
  });
});

describe('budgetOutput', () => {
  it('counts tokens as bytes / 4 rounded up and keeps output within the budget', () => {
    expect(budgetOutput(Buffer.from('hi\n'), 10)).toEqual({ output: 'hi\n', originalTokenCount: 1 });
    const big = budgetOutput(Buffer.from('a'.repeat(400) + 'b'.repeat(400)), 10);
    expect(big.originalTokenCount).toBe(200);
    expect(big.output).toBe(`${'a'.repeat(20)}…190 tokens truncated…${'b'.repeat(20)}`);
  });

  it('replaces invalid UTF-8 instead of failing', () => {
    expect(budgetOutput(Uint8Array.of(0x68, 0xff, 0x69), 10).output).toBe('h\uFFFDi');
  });
});

describe('newChunkId', () => {
  it('is six hex digits', () => {
    expect(newChunkId()).toMatch(/^[0-9a-f]{6}$/);
  });
});
