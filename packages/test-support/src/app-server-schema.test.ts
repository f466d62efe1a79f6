import { describe, expect, it } from 'vitest';
import { AppServerSchemaError, appServerSchema } from './app-server-schema.js';

describe('appServerSchema', () => {
  it('finds each method\'s response definition by Codex\'s naming', () => {
    const schema = appServerSchema();
    expect(schema.responseDefinition('initialize')).toBe('InitializeResponse');
    expect(schema.responseDefinition('fs/readFile')).toBe('v2/FsReadFileResponse');
    expect(schema.responseDefinition('thread/start')).toBe('v2/ThreadStartResponse');
    expect(schema.responseDefinition('configRequirements/read')).toBe('v2/ConfigRequirementsReadResponse');
    expect(schema.responseDefinition('not/a/method')).toBeUndefined();
    expect(schema.clientRequestMethods).toContain('experimentalFeature/list');
  });

  // Compiling Codex's large unions takes ~2 s alone and has taken ~20 s with every package testing at once.
  it('accepts what Codex sends and refuses what it would not', { timeout: 120_000 }, () => {
    const schema = appServerSchema();
    expect(() => schema.assertServerMessage({ id: 1, result: { dataBase64: 'aGk=' } }, 'fs/readFile')).not.toThrow();
    expect(() => schema.assertServerMessage({ id: 1, result: { data: 'aGk=' } }, 'fs/readFile')).toThrow(AppServerSchemaError);
    expect(() => schema.assertServerMessage({ id: 2, error: { code: -32600, message: 'Not initialized' } })).not.toThrow();
    expect(() => schema.assertServerMessage({ method: 'configWarning', params: { summary: 's' }, emittedAtMs: 1 })).not.toThrow();
    expect(() => schema.assertServerMessage({ method: 'configWarning', params: {} })).toThrow(/ServerNotification/);
    expect(() => schema.assertServerMessage({ jsonrpc: '2.0', id: 1, result: {} })).toThrow(/jsonrpc/);
    expect(() => schema.assertServerMessage([1])).toThrow(AppServerSchemaError);
    expect(() => schema.assertClientMessage({ id: 0, method: 'fs/readFile', params: { path: '/x' } })).not.toThrow();
    expect(() => schema.assertClientMessage({ id: 0, method: 'fs/readFile', params: {} })).toThrow(/ClientRequest/);
  });

  // A message is checked against the one variant its method names; the union's own rules still hold.
  it('checks a message against the variant of its method, and the union beside it', () => {
    const schema = appServerSchema();
    expect(() => schema.assertServerMessage({ method: 'configWarning', params: { summary: 's' }, emittedAtMs: 'soon' })).toThrow(/emittedAtMs/);
    expect(() => schema.assertServerMessage({ method: 'turn/completed', params: { summary: 's' } })).toThrow(/ServerNotification/);
    expect(() => schema.assertServerMessage({ method: 'no/suchNotification', params: {} })).toThrow(/ServerNotification/);
    expect(() => schema.assertServerMessage({ id: 3, method: 'item/commandExecution/requestApproval', params: {} })).toThrow(/ServerRequest/);
    expect(schema.errors('ServerNotification', { method: 'configWarning', params: { summary: 's' } })).toEqual([]);
  });
});
