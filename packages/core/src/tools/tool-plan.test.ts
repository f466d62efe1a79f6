import type { Config } from '@skein/config';
import { defineCustomTool, defineFunctionTool, type ToolHandler } from '@skein/extension-api';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { planTools, type BuiltInToolFactory, type ToolPlanInputs } from './tool-plan.js';
import { toolName } from './tool-router.js';

const tool = (name: string): ToolHandler =>
  defineFunctionTool({
    spec: { type: 'function', name, description: name, strict: false, parameters: { type: 'object', properties: {} } },
    arguments: z.object({}),
    handle: () => Promise.resolve({ output: name, success: true }),
  });
const builtIns: BuiltInToolFactory = {
  execCommand: () => tool('exec_command'),
  writeStdin: () => tool('write_stdin'),
  requestUserInput: () => tool('request_user_input'),
  getContextRemaining: () => tool('get_context_remaining'),
  waitForEnvironment: () => tool('wait_for_environment'),
  applyPatch: () => tool('apply_patch'),
  viewImage: (detail) => tool(`view_image_${detail}`),
};
const inputs = (overrides: Partial<ToolPlanInputs> = {}): ToolPlanInputs => ({
  features: { isEnabled: () => true },
  model: { supportsImageInput: true, supportsImageDetailOriginal: true, webSearchContentTypes: ['text', 'image'] },
  hasEnvironment: true,
  builtIns,
  contributions: [],
  ...overrides,
});
const names = (plan: ReturnType<typeof planTools>) => plan.tools.map(toolName);

describe('planTools', () => {
  it('puts the built-in tools first in Codex’s order, then extension tools in installation order', () => {
    const plan = planTools(inputs({ contributions: [{ extensionId: 'a', tools: [tool('alpha')] }, { extensionId: 'b', tools: [tool('beta')] }] }));
    expect(names(plan)).toEqual(['exec_command', 'write_stdin', 'wait_for_environment', 'request_user_input', 'get_context_remaining', 'apply_patch', 'view_image_original', 'alpha', 'beta']);
    expect(plan.warnings).toEqual([]);
  });

  it('offers no built-in tool without an environment, and picks view_image’s detail from the model', () => {
    expect(names(planTools(inputs({ hasEnvironment: false, contributions: [{ extensionId: 'a', tools: [tool('alpha')] }] })))).toEqual(['alpha']);
    expect(names(planTools(inputs({ model: { supportsImageInput: true, supportsImageDetailOriginal: false, webSearchContentTypes: null } })))).toContain('view_image_high');
    expect(names(planTools(inputs({ model: { supportsImageInput: false, supportsImageDetailOriginal: false, webSearchContentTypes: null } })))).not.toContain('view_image_high');
    expect(names(planTools(inputs({ features: { isEnabled: (key) => key !== 'unified_exec' && key !== 'deferred_executor' } })))).toEqual(['request_user_input', 'get_context_remaining', 'apply_patch', 'view_image_original']);
    expect(names(planTools(inputs({ features: { isEnabled: (key) => key !== 'token_budget' } })))).not.toContain('get_context_remaining');
    expect(names(planTools(inputs({ features: { isEnabled: (key) => key !== 'deferred_executor' } })))).not.toContain('wait_for_environment');
  });

  it('offers the hosted web_search last, as each web_search mode and [tools.web_search] set it (Codex 0.171.0, probed)', () => {
    const search = (webSearch: Partial<Config['webSearch']>, contentTypes: readonly ('text' | 'image')[] | null = ['text', 'image']) =>
      planTools(
        inputs({
          webSearch: { mode: 'cached', allowedDomains: undefined, contextSize: undefined, location: undefined, ...webSearch },
          model: { supportsImageInput: true, supportsImageDetailOriginal: true, webSearchContentTypes: contentTypes },
          contributions: [{ extensionId: 'a', tools: [tool('alpha')] }],
        }),
      ).hosted;
    expect(search({})).toEqual([{ type: 'web_search', external_web_access: false, search_content_types: ['text', 'image'] }]);
    expect(search({ mode: 'live' })).toEqual([{ type: 'web_search', external_web_access: true, search_content_types: ['text', 'image'] }]);
    expect(search({ mode: 'indexed' })).toEqual([{ type: 'web_search', external_web_access: true, indexed_web_access: true, search_content_types: ['text', 'image'] }]);
    expect(search({ mode: 'disabled' })).toEqual([]);
    // A model the catalog does not know names no content types.
    expect(search({}, null)).toEqual([{ type: 'web_search', external_web_access: false }]);
    // Codex's key order: filters, user_location, search_context_size, search_content_types.
    const full = search({ allowedDomains: ['a.com'], contextSize: 'low', location: { country: 'US', city: 'SF' } })[0];
    expect(JSON.stringify(full)).toBe(
      '{"type":"web_search","external_web_access":false,"filters":{"allowed_domains":["a.com"]},"user_location":{"type":"approximate","country":"US","city":"SF"},"search_context_size":"low","search_content_types":["text","image"]}',
    );
    // Without settings (a host that plans without config) nothing is hosted.
    expect(planTools(inputs()).hosted).toEqual([]);
  });

  it('leaves out a tool whose name is taken, by a built-in or an earlier extension, with a warning naming both', () => {
    const plan = planTools(inputs({ contributions: [{ extensionId: 'a', tools: [tool('exec_command'), tool('alpha')] }, { extensionId: 'b', tools: [tool('alpha')] }] }));
    expect(names(plan).filter((name) => name === 'exec_command' || name === 'alpha')).toEqual(['exec_command', 'alpha']);
    expect(plan.warnings).toEqual([
      "extension 'a' tool 'exec_command' is left out: the name 'exec_command' is already taken",
      "extension 'b' tool 'alpha' is left out: the name 'alpha' is already taken",
    ]);
  });

  it('leaves out tools with invalid specs, whatever a JavaScript extension sends', () => {
    const bad = [
      tool('has space'),
      { ...tool('x'), spec: { type: 'function', name: 'x' } },
      defineCustomTool({ spec: { type: 'function', name: 'mixed', description: '', strict: false, parameters: { type: 'object' } } as never, handle: () => Promise.resolve({ output: '', success: true }) }),
      { kind: 'namespace', name: 'empty', description: 'Nothing.', tools: [] },
      { kind: 'namespace', name: 'twice', description: 'Twins.', tools: [tool('same'), tool('same')] },
      { kind: 'function', spec: undefined },
      null,
      'exec_command',
    ] as unknown as ToolHandler[];
    const plan = planTools(inputs({ hasEnvironment: false, contributions: [{ extensionId: 'odd', tools: bad }] }));
    expect(plan.tools).toEqual([]);
    expect(plan.warnings).toEqual([
      "extension 'odd' tool 'has space' is left out: a tool name must match ^[A-Za-z0-9_-]{1,64}$",
      "extension 'odd' tool 'x' is left out: its spec is invalid: description: Invalid input: expected string, received undefined; strict: Invalid input: expected boolean, received undefined; parameters: Invalid input: expected object, received undefined",
      "extension 'odd' tool 'mixed' is left out: its spec is invalid: type: Invalid input: expected \"custom\"",
      "extension 'odd' tool 'empty' is left out: the namespace holds no tools",
      "extension 'odd' tool 'twice' is left out: two of its tools are named 'same'",
      "extension 'odd' tool '(unnamed)' is left out: it has no handle function",
      "extension 'odd' offered null as a tool; it is left out",
      "extension 'odd' offered string as a tool; it is left out",
    ]);
  });
});
