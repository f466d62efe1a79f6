// FeatureKey at the type level: a registered key compiles, a typo does not (typecheck runs this file,
// so an `@ts-expect-error` that stops erroring fails the build); strings from outside take the checked path.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { FEATURE_REGISTRY, featureSpec, isFeatureKey, type FeatureKey, type FeatureSpec } from './feature-registry.js';
import { Features } from './features.js';
import { resolveFeatures } from './resolve-features.js';

describe('FeatureKey', () => {
  it('is the union of the registry keys, not `string`', () => {
    expectTypeOf<'shell_tool'>().toExtend<FeatureKey>();
    expectTypeOf<'unified_exec'>().toExtend<FeatureKey>();
    expectTypeOf<'view_image'>().toExtend<FeatureKey>();
    expectTypeOf<string>().not.toExtend<FeatureKey>();
    expectTypeOf<'no_such_feature'>().not.toExtend<FeatureKey>();
    expectTypeOf(FEATURE_REGISTRY[0].key).toEqualTypeOf<'agent_message_board'>();
  });

  it('makes asking Features for an unknown key a type error', () => {
    const features = Features.defaults();
    expectTypeOf<Parameters<Features['isEnabled']>[0]>().toEqualTypeOf<FeatureKey>();
    // @ts-expect-error — 'shell_tools' is a typo of 'shell_tool'.
    expect(() => features.isEnabled('shell_tools')).toThrow(/unknown feature `shell_tools`/);
    const fromConfig: string = 'shell_tool';
    // @ts-expect-error — a plain string must be checked first.
    features.isEnabled(fromConfig);
    expect(features.isEnabled('shell_tool')).toBe(true);
  });

  it('gives a registered key its spec without `undefined`, and a string `FeatureSpec | undefined`', () => {
    expectTypeOf(featureSpec('goals')).toEqualTypeOf<FeatureSpec<FeatureKey>>();
    const name: string = 'goals';
    expectTypeOf(featureSpec(name)).toEqualTypeOf<FeatureSpec<FeatureKey> | undefined>();
    expect(featureSpec(name)?.key).toBe('goals');
  });

  it('narrows a string from config or a flag once checked', () => {
    const names: string[] = ['memories', 'Memories', 'no_such_feature'];
    const known = names.filter(isFeatureKey);
    expectTypeOf(known).toEqualTypeOf<FeatureKey[]>();
    expect(known).toEqual(['memories']);
    const { features } = resolveFeatures([{ origin: '--enable', table: { memories: true } }]);
    expect(known.map((key) => features.isEnabled(key))).toEqual([true]);
    expect(features.lookup('memories')).toBe(true);
    expect(features.lookup('Memories')).toBeUndefined();
  });
});
