// The registry builder: grouping contributions, and refusing extensions that would clash.
import { BUILT_IN_CONTEXT_FRAGMENTS, defineContextFragment, type ContextFragmentDefinition } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { ExtensionRegistryBuilder, ExtensionRegistryError, defineExtension } from './extension-registry.js';
import type { WorldStateContributor } from './world-state-contributor.js';

const section = (sectionId: string): WorldStateContributor => ({
  sectionId,
  snapshot: () => Promise.resolve(null),
  renderChange: () => undefined,
});

const fragment = (kind: string, open: string): ContextFragmentDefinition => defineContextFragment({ kind, role: 'user', open, close: open.replace('<', '</') });

describe('ExtensionRegistryBuilder', () => {
  it('groups contributions by kind in installation order, remembering where each came from', () => {
    const registry = new ExtensionRegistryBuilder()
      .add(defineExtension({ id: 'alpha', context: {}, tools: { tools: () => Promise.resolve([]) }, worldState: [section('a1'), section('a2')] }))
      .add(defineExtension({ id: 'beta', context: {}, lifecycle: {}, turnInput: { contributeTurnInput: () => Promise.resolve([]) } }))
      .build();
    expect(registry.extensions.map((extension) => extension.id)).toEqual(['alpha', 'beta']);
    expect(registry.context.map((entry) => entry.extensionId)).toEqual(['alpha', 'beta']);
    expect(registry.tools.map((entry) => entry.extensionId)).toEqual(['alpha']);
    expect(registry.lifecycle.map((entry) => entry.extensionId)).toEqual(['beta']);
    expect(registry.turnInput.map((entry) => entry.extensionId)).toEqual(['beta']);
    expect(registry.worldState.map((entry) => [entry.extensionId, entry.contributor.sectionId])).toEqual([['alpha', 'a1'], ['alpha', 'a2']]);
    expect(Object.isFrozen(registry)).toBe(true);
  });

  it.each([
    [[{ id: 'Bad Id' }], 'InvalidId'],
    [[{ id: 'same' }, { id: 'same' }], 'DuplicateId'],
    [[{ id: 'one', worldState: [section('s')] }, { id: 'two', worldState: [section('s')] }], 'DuplicateSection'],
  ])('refuses %j with %s', (extensions, code) => {
    const builder = new ExtensionRegistryBuilder();
    try {
      for (const extension of extensions) builder.add(extension);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ExtensionRegistryError);
      expect((error as ExtensionRegistryError).code).toBe(code);
    }
  });

  it('lists the fragments history must recognise: the built-ins, then each extension\'s', () => {
    const todo = fragment('todo.list', '<todo_list>');
    const registry = new ExtensionRegistryBuilder().add({ id: 'todo', fragments: [todo] }).build();
    expect(registry.fragments).toEqual([{ extensionId: 'todo', contributor: todo }]);
    expect(registry.contextFragments).toEqual([...BUILT_IN_CONTEXT_FRAGMENTS, todo]);
  });

  it.each([
    ['the open marker of another extension', [{ id: 'one', fragments: [fragment('one.list', '<todo_list>')] }, { id: 'two', fragments: [fragment('two.list', '<TODO_LIST>')] }]],
    ['a built-in marker', [{ id: 'env', fragments: [fragment('env.context', '<environment_context>')] }]],
    ['a marker a built-in opens with', [{ id: 'agents', fragments: [defineContextFragment({ kind: 'agents.more', role: 'user', open: '# AGENTS.md instructions for extensions', close: '</x>' })] }]],
    ['a kind already taken', [{ id: 'one', fragments: [fragment('shared.list', '<one>')] }, { id: 'two', fragments: [fragment('shared.list', '<two>')] }]],
    ['its own marker twice', [{ id: 'one', fragments: [fragment('one.a', '<a>'), fragment('one.b', '<a>')] }]],
  ])('refuses a fragment that reuses %s', (_what, extensions) => {
    const builder = new ExtensionRegistryBuilder();
    expect(() => {
      for (const extension of extensions) builder.add(extension);
    }).toThrow(expect.objectContaining({ name: 'ExtensionRegistryError', code: 'DuplicateFragment' }));
  });
});
