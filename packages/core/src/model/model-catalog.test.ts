import { describe, expect, it } from 'vitest';
import { effectiveContextWindow, findModelInfo } from './model-catalog.js';

describe('findModelInfo', () => {
  it('describes gpt-5.5 as a direct-tools reasoning model with a 258 400-token effective window', () => {
    const info = findModelInfo('gpt-5.5');
    expect(info).toMatchObject({ toolMode: 'direct', defaultReasoningEffort: 'medium', defaultVerbosity: 'low', supportsParallelToolCalls: true });
    // Codex 0.171.0 reports model_context_window 258400 for gpt-5.5 in its rollouts.
    expect(effectiveContextWindow(info)).toBe(258_400);
  });

  it('matches dated snapshots by prefix and keeps their slug', () => {
    expect(findModelInfo('gpt-5.5-2026-05-01')).toMatchObject({ slug: 'gpt-5.5-2026-05-01', toolMode: 'direct', contextWindow: 272_000 });
    expect(findModelInfo('gpt-5.55').supportsReasoning).toBe(false);
  });

  it('gives unknown models a conservative default and lets config override the window', () => {
    expect(findModelInfo('llama-local')).toMatchObject({ contextWindow: 128_000, supportsReasoning: false, supportsVerbosity: false });
    expect(findModelInfo('gpt-5.5', { contextWindow: 100_000 }).contextWindow).toBe(100_000);
  });
});
