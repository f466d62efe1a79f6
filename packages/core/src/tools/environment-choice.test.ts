import { describe, expect, it } from 'vitest';
import { defineFunctionTool } from '@skein/extension-api';
import * as z from 'zod';
import { requestedEnvironmentId, withEnvironmentParameter } from './environment-choice.js';
import { parsePatch } from './apply-patch/parse-patch.js';

describe('requestedEnvironmentId', () => {
  it('reads environment_id from a function call and the Environment ID line from a patch', () => {
    expect(requestedEnvironmentId({ type: 'function_call', call_id: 'c', name: 'exec_command', arguments: '{"cmd":"ls","environment_id":"win"}' })).toBe('win');
    expect(requestedEnvironmentId({ type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: '*** Begin Patch\n*** Environment ID: win\n*** Add File: a\n+x\n*** End Patch' })).toBe('win');
  });

  it('names none for calls without one, with an empty one, or with arguments that do not parse', () => {
    expect(requestedEnvironmentId({ type: 'function_call', call_id: 'c', name: 'exec_command', arguments: '{"cmd":"ls"}' })).toBeUndefined();
    expect(requestedEnvironmentId({ type: 'function_call', call_id: 'c', name: 'exec_command', arguments: '{"environment_id":""}' })).toBeUndefined();
    expect(requestedEnvironmentId({ type: 'function_call', call_id: 'c', name: 'exec_command', arguments: '{not json' })).toBeUndefined();
    expect(requestedEnvironmentId({ type: 'custom_tool_call', call_id: 'c', name: 'other', input: '*** Environment ID: win' })).toBeUndefined();
  });
});

describe('withEnvironmentParameter', () => {
  it('adds environment_id among the properties in name order and keeps the rest of the spec', () => {
    const tool = defineFunctionTool({
      spec: { type: 'function', name: 't', description: 'd', strict: false, parameters: { type: 'object', properties: { cmd: {}, path: {} }, required: ['cmd'] } },
      arguments: z.object({ cmd: z.string() }),
      handle: () => Promise.resolve({ output: '', success: true }),
    });
    const offered = withEnvironmentParameter(tool);
    expect(Object.keys(offered.spec.parameters.properties as object)).toEqual(['cmd', 'environment_id', 'path']);
    expect(offered.spec.parameters.required).toEqual(['cmd']);
    expect(Object.keys(tool.spec.parameters.properties as object)).toEqual(['cmd', 'path']);
  });
});

describe('a patch that names its environment', () => {
  it('parses the hunks after the Environment ID line, numbered as the patch has them', () => {
    expect(parsePatch('*** Begin Patch\n*** Environment ID: remote\n*** Add File: a.txt\n+x\n*** End Patch').hunks).toEqual([{ kind: 'add', path: 'a.txt', contents: 'x\n', line: 3 }]);
  });
});
