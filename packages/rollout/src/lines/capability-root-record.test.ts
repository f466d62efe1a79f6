import { describe, expect, it } from 'vitest';
import { capabilityRootRecord, capabilityRootsFromRecord } from './capability-root-record.js';

const root = { id: 'root-1', location: { type: 'environment' as const, environmentId: 'local', path: '/work/my roots' } };

describe('selected_capability_roots', () => {
  it('records the path as a file: URI, as Codex does, and reads it back as the native path', () => {
    const record = capabilityRootRecord(root);
    expect(record).toEqual({ id: 'root-1', location: { type: 'environment', environmentId: 'local', path: 'file:///work/my%20roots' } });
    expect(capabilityRootsFromRecord([record])).toEqual({ ok: true, roots: [root] });
    const windows = { id: 'w', location: { type: 'environment' as const, environmentId: 'remote', path: 'C:\\Users\\ada' } };
    expect(capabilityRootsFromRecord([capabilityRootRecord(windows)])).toEqual({ ok: true, roots: [{ ...windows, location: { ...windows.location, path: 'c:\\Users\\ada' } }] });
  });

  it('reads no roots from an absent header field, and reports a malformed one', () => {
    expect(capabilityRootsFromRecord(undefined)).toEqual({ ok: true, roots: [] });
    expect(capabilityRootsFromRecord(null)).toEqual({ ok: true, roots: [] });
    expect(capabilityRootsFromRecord([{ id: 'x', location: { type: 'url' } }])).toMatchObject({ ok: false });
    expect(capabilityRootsFromRecord([{ id: 'x', location: { type: 'environment', environmentId: 'local', path: 'relative/path' } }])).toMatchObject({ ok: false });
    expect(capabilityRootsFromRecord([{ id: 'x', location: { type: 'environment', environmentId: 'local', path: 'file://host' } }])).toMatchObject({ ok: false });
  });
});
