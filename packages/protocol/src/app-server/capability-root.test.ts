import { describe, expect, it } from 'vitest';
import { SelectedCapabilityRoot } from './capability-root.js';

const root = (path: string) => ({ id: 'r', location: { type: 'environment', environmentId: 'local', path } });

describe('SelectedCapabilityRoot', () => {
  it('takes the app-server v2 shape with an absolute POSIX or Windows path', () => {
    expect(SelectedCapabilityRoot.parse(root('/opt/skills'))).toEqual(root('/opt/skills'));
    expect(SelectedCapabilityRoot.safeParse(root('C:\\skills')).success).toBe(true);
  });

  it('refuses relative paths, paths with no file: URI and unknown location types', () => {
    expect(SelectedCapabilityRoot.safeParse(root('skills')).success).toBe(false);
    expect(SelectedCapabilityRoot.safeParse(root('/../x')).success).toBe(false);
    expect(SelectedCapabilityRoot.safeParse({ id: 'r', location: { type: 'url', url: 'https://x' } }).success).toBe(false);
  });
});
