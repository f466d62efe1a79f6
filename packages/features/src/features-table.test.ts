// featuresTable() as @skein/config will use it: converted to JSON Schema and used to check a table's types.

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { FEATURE_REGISTRY } from './feature-registry.js';
import { featuresTable } from './features-table.js';

const FeaturesTable = featuresTable();

describe('featuresTable', () => {
  it('builds the table once, on the first call', () => {
    expect(featuresTable()).toBe(FeaturesTable);
  });

  it('converts to a JSON Schema with one described property per registered feature', () => {
    const schema = z.toJSONSchema(FeaturesTable) as { properties: Record<string, { description?: string }>; additionalProperties: unknown };
    expect(Object.keys(schema.properties)).toEqual(FEATURE_REGISTRY.map((spec) => spec.key));
    expect(schema.properties['goals']?.description).toBe(
      'A thread can hold a goal and keeps working towards it across turns. (stable; on by default)',
    );
    expect(schema.properties['item_ids']?.description).toContain('Removed: setting it has no effect (stays on).');
    expect(schema.additionalProperties).toEqual({});
  });

  it('allows a boolean or a table for structured features and a boolean only for plain ones', () => {
    expect(FeaturesTable.safeParse({ rollout_budget: { enabled: true, limit_tokens: 5 }, token_budget: false }).success).toBe(true);
    expect(FeaturesTable.safeParse({ multi_agent_v2: { enabled: true, anything: 1 } }).success).toBe(true);
    expect(FeaturesTable.safeParse({ goals: { enabled: true } }).success).toBe(false);
    expect(FeaturesTable.safeParse({ rollout_budget: { limit_token: 5 } }).success).toBe(false);
  });

  it('allows keys it does not know, since unknown features only warn', () => {
    expect(FeaturesTable.safeParse({ some_future_feature: true }).success).toBe(true);
  });
});
