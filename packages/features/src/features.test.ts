// Features values are immutable: frozen themselves, their lists and configs frozen, and only this
// package can construct one.

import { describe, expect, it } from 'vitest';
import { Features } from './features.js';
import { USER, layer } from '../test/support.js';
import { resolveFeatures } from './resolve-features.js';

const { features } = resolveFeatures([
  layer(USER, {
    memories: true,
    token_budget: { enabled: true, reminder_threshold_tokens: 100 },
    rollout_budget: { enabled: true, limit_tokens: 1_000, reminder_at_remaining_tokens: [10] },
  }),
]);

describe('Features immutability', () => {
  it('is frozen, so its fields cannot be reassigned', () => {
    expect(Object.isFrozen(features)).toBe(true);
    expect(() => {
      (features as { tokenBudget: unknown }).tokenBudget = undefined;
    }).toThrow(TypeError);
    expect(features.tokenBudget).toBeDefined();
  });

  it('cannot gain properties or methods', () => {
    expect(() => {
      Object.assign(features, { isEnabled: () => false });
    }).toThrow(TypeError);
    expect(features.isEnabled('memories')).toBe(true);
  });

  it('returns a frozen list of frozen entries', () => {
    const list = features.list();
    expect(Object.isFrozen(list)).toBe(true);
    expect(() => (list as unknown[]).push({})).toThrow(TypeError);
    const memories = list.find((status) => status.spec.key === 'memories');
    expect(memories && Object.isFrozen(memories)).toBe(true);
    expect(() => {
      (memories as { enabled: boolean }).enabled = false;
    }).toThrow(TypeError);
    expect(() => {
      (memories?.spec as { defaultEnabled: boolean }).defaultEnabled = true;
    }).toThrow(TypeError);
    expect(features.isEnabled('memories')).toBe(true);
  });

  it('freezes the structured configs all the way down', () => {
    expect(Object.isFrozen(features.tokenBudget)).toBe(true);
    expect(Object.isFrozen(features.rolloutBudget)).toBe(true);
    expect(Object.isFrozen(features.rolloutBudget?.reminder_at_remaining_tokens)).toBe(true);
    expect(() => {
      (features.rolloutBudget as { limit_tokens: number }).limit_tokens = 1;
    }).toThrow(TypeError);
    expect(features.rolloutBudget?.limit_tokens).toBe(1_000);
  });

  it('cannot be constructed from outside the package', () => {
    const construct = Features as unknown as new (key: symbol, state: unknown) => Features;
    expect(() => new construct(Symbol('@skein/features: construct Features'), {})).toThrow(TypeError);
  });
});

describe('Features.defaults', () => {
  it('has every feature at its registry default and no structured config', () => {
    const defaults = Features.defaults();
    for (const status of defaults.list()) expect(status.enabled, status.spec.key).toBe(status.spec.defaultEnabled);
    expect(defaults.tokenBudget).toBeUndefined();
    expect(defaults.rolloutBudget).toBeUndefined();
    expect(defaults.isEnabled('item_ids')).toBe(true);
    expect(defaults.isEnabled('auto_compaction')).toBe(true);
  });

  it('is one shared frozen value', () => {
    expect(Features.defaults()).toBe(Features.defaults());
    expect(Object.isFrozen(Features.defaults())).toBe(true);
  });
});
