// The registry against Codex 0.171.0's `codex features list` (a committed copy in test/fixtures):
// same keys, stages and defaults, Skein's additions named, and the flags the issue calls out.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FeatureStage } from './feature-stage.js';
import { FEATURE_REGISTRY, featureSpec } from './feature-registry.js';
import { featureStageLabel } from './feature-stage.js';

interface CodexFeature {
  readonly key: string;
  readonly stage: FeatureStage;
  readonly defaultEnabled: boolean;
}

const STAGE_BY_LABEL: Readonly<Record<string, FeatureStage>> = {
  'under development': 'underDevelopment',
  experimental: 'beta',
  stable: 'stable',
  deprecated: 'deprecated',
  removed: 'removed',
};

function readCodexFeatures(): CodexFeature[] {
  const text = readFileSync(path.join(import.meta.dirname, '..', 'test', 'fixtures', 'codex-features.txt'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\S+)\s+(under development|experimental|stable|deprecated|removed)\s+(true|false)$/.exec(line);
      if (match === null) throw new Error(`unexpected line in codex-features.txt: ${line}`);
      const [, key = '', label = '', value = ''] = match;
      return { key, stage: STAGE_BY_LABEL[label] ?? 'stable', defaultEnabled: value === 'true' };
    });
}

const CODEX = readCodexFeatures();

// Where the issue overrides Codex's stage or default. Empty: for every key the issue names, its
// state agrees with codex-features.txt.
const ISSUE_OVERRIDES: Readonly<Record<string, Omit<CodexFeature, 'key'>>> = {};
// Keys Skein adds to Codex's list.
const SKEIN_ONLY = ['auto_compaction'];

// The flags Skein reads (see acted-features-read.test.ts), with their states.
const ACTED_ON: Readonly<Record<string, Omit<CodexFeature, 'key'>>> = {
  auto_compaction: { stage: 'stable', defaultEnabled: true },
  current_time_reminder: { stage: 'underDevelopment', defaultEnabled: false },
  deferred_executor: { stage: 'underDevelopment', defaultEnabled: false },
  goals: { stage: 'stable', defaultEnabled: true },
  multi_agent: { stage: 'deprecated', defaultEnabled: true },
  multi_agent_v2: { stage: 'stable', defaultEnabled: false },
  plugins: { stage: 'stable', defaultEnabled: true },
  recommended_plugins: { stage: 'stable', defaultEnabled: false },
  rollout_budget: { stage: 'underDevelopment', defaultEnabled: false },
  shell_snapshot: { stage: 'stable', defaultEnabled: true },
  shell_tool: { stage: 'stable', defaultEnabled: true },
  step_model_switching: { stage: 'underDevelopment', defaultEnabled: false },
  token_budget: { stage: 'underDevelopment', defaultEnabled: false },
  tool_suggest: { stage: 'stable', defaultEnabled: true },
  unified_exec: { stage: 'stable', defaultEnabled: true },
  view_image: { stage: 'stable', defaultEnabled: true },
  web_search_request: { stage: 'deprecated', defaultEnabled: false },
};

describe('the feature registry', () => {
  it('reads all of codex-features.txt', () => {
    expect(CODEX.length).toBeGreaterThan(200);
  });

  it('has every Codex 0.171.0 key with Codex\'s stage and default, except the listed overrides', () => {
    for (const codex of CODEX) {
      const expected = { ...codex, ...ISSUE_OVERRIDES[codex.key] };
      const spec = featureSpec(codex.key);
      expect(spec && { key: spec.key, stage: spec.stage, defaultEnabled: spec.defaultEnabled }, codex.key).toEqual(expected);
    }
  });

  it('adds only the keys Skein owns', () => {
    const codexKeys = new Set(CODEX.map((feature) => feature.key));
    const extra = FEATURE_REGISTRY.map((spec) => spec.key).filter((key) => !codexKeys.has(key));
    expect(extra).toEqual(SKEIN_ONLY);
  });

  it('marks exactly the flags Skein reads as acted on, with their states', () => {
    const actedOn = FEATURE_REGISTRY.filter((spec) => spec.actedOn);
    expect(Object.fromEntries(actedOn.map((spec) => [spec.key, { stage: spec.stage, defaultEnabled: spec.defaultEnabled }]))).toEqual(ACTED_ON);
  });

  it('is sorted by key with no duplicates, in the same order as codex features list', () => {
    const keys = FEATURE_REGISTRY.map((spec) => spec.key);
    for (let index = 1; index < keys.length; index++) expect((keys[index - 1] ?? '') < (keys[index] ?? ''), keys[index]).toBe(true);
    const codexOrder = CODEX.map((feature) => feature.key);
    expect(keys.filter((key) => !SKEIN_ONLY.includes(key))).toEqual(codexOrder);
  });

  it('gives every feature a one-line description of its own', () => {
    for (const spec of FEATURE_REGISTRY) {
      expect(spec.description, spec.key).toMatch(/^\S.*\S$/);
      expect(spec.description, spec.key).not.toContain('\n');
      expect(spec.description.length, spec.key).toBeLessThanOrEqual(160);
    }
    const descriptions = new Set(FEATURE_REGISTRY.map((spec) => spec.description));
    expect(descriptions.size).toBe(FEATURE_REGISTRY.length);
  });

  it('looks keys up exactly, case-sensitively', () => {
    expect(featureSpec('goals')?.stage).toBe('stable');
    expect(featureSpec('guardianv2.thread_context')?.stage).toBe('removed');
    expect(featureSpec('Goals')).toBeUndefined();
    expect(featureSpec('no_such_feature')).toBeUndefined();
  });

  it('cannot be changed at runtime', () => {
    expect(Object.isFrozen(FEATURE_REGISTRY)).toBe(true);
    for (const spec of FEATURE_REGISTRY) expect(Object.isFrozen(spec), spec.key).toBe(true);
  });

  it('prints stages with the labels codex features list uses', () => {
    const labels = Object.fromEntries(FEATURE_REGISTRY.map((spec) => [spec.key, featureStageLabel(spec.stage)]));
    for (const codex of CODEX) expect(STAGE_BY_LABEL[labels[codex.key] ?? '']).toBe(codex.stage);
    expect(featureStageLabel('beta')).toBe('experimental');
    expect(featureStageLabel('underDevelopment')).toBe('under development');
  });
});
