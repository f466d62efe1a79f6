import { describe, expect, it } from 'vitest';
import { effectiveContextWindow, findModelInfo, listModels } from './model-catalog.js';

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

describe("Codex's bundled models", () => {
  it('knows every model Codex 0.171.0 bundles, with the windows clients are told', () => {
    expect(listModels().map((info) => info.slug)).toHaveLength(14);
    // thread/tokenUsage/updated reports these as modelContextWindow (CODEX-FACTS §5 and §11).
    expect(effectiveContextWindow(findModelInfo('gpt-6.2-sol'))).toBe(475_000);
    expect(effectiveContextWindow(findModelInfo('gpt-5.5'))).toBe(258_400);
  });

  it('marks which take their tools directly and which run them through code mode', () => {
    expect(listModels().filter((info) => info.toolMode === 'direct').map((info) => info.slug)).toEqual(['gpt-5.5']);
    expect(findModelInfo('gpt-6-luna')).toMatchObject({ toolMode: 'code_mode_only', defaultReasoningEffort: 'medium', supportedReasoningEfforts: ['low', 'medium', 'high', 'xhigh', 'max'] });
    expect(listModels().filter((info) => info.hidden).map((info) => info.slug)).toEqual(['gpt-daybreak-blue-latest', 'gpt-daybreak-red-latest', 'codex-auto-review']);
  });
});
