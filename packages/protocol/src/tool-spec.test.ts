import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolSpec } from './tool-spec.js';

describe('ToolSpec', () => {
  it('reads every tool Codex 0.171.0 offered gpt-5.5, unchanged', () => {
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'test', 'fixtures', 'codex-request-tools.gpt-5.5.json'), 'utf8')) as unknown[];
    expect(recorded.length).toBeGreaterThan(5);
    for (const tool of recorded) expect(ToolSpec.parse(tool)).toEqual(tool);
  });

  it('rejects a function without parameters and a grammar without a definition', () => {
    expect(ToolSpec.safeParse({ type: 'function', name: 'f', description: '', strict: false }).success).toBe(false);
    expect(ToolSpec.safeParse({ type: 'custom', name: 'p', description: '', format: { type: 'grammar', syntax: 'lark' } }).success).toBe(false);
  });

  it('keeps namespaced tools', () => {
    const namespace = {
      type: 'namespace',
      name: 'skills',
      description: 'd',
      tools: [{ type: 'function', name: 'list', description: 'd', strict: false, parameters: { type: 'object', properties: {} } }],
    };
    expect(ToolSpec.parse(namespace)).toEqual(namespace);
  });
});
