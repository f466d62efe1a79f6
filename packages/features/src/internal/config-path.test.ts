// Spelling of dotted keys and values in messages, and what counts as a TOML table.

import { describe, expect, it } from 'vitest';
import { describeValue, dottedKey, isTable } from './config-path.js';

describe('dottedKey', () => {
  it('joins bare keys with dots', () => {
    expect(dottedKey(['features', 'rollout_budget', 'limit_tokens'])).toBe('features.rollout_budget.limit_tokens');
  });

  it('quotes keys TOML cannot write bare and renders indexes', () => {
    expect(dottedKey(['features', 'guardianv2.thread_context'])).toBe('features."guardianv2.thread_context"');
    expect(dottedKey(['features', 'my key', 'list', 2])).toBe('features."my key".list[2]');
  });
});

describe('describeValue', () => {
  it('cuts long strings and names non-scalars by kind', () => {
    expect(describeValue('x'.repeat(50))).toBe(`"${'x'.repeat(40)}…"`);
    expect(describeValue([1])).toBe('an array');
    expect(describeValue({ a: 1 })).toBe('a table');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(12n)).toBe('12');
  });
});

describe('isTable', () => {
  it('accepts plain objects only', () => {
    expect(isTable({})).toBe(true);
    expect(isTable(Object.create(null))).toBe(true);
    expect(isTable([])).toBe(false);
    expect(isTable(new Date(0))).toBe(false);
    expect(isTable(new Map())).toBe(false);
    expect(isTable(null)).toBe(false);
  });
});
