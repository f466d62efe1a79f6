import { describe, expect, it } from 'vitest';
import { childEnvironment } from './child-environment.js';

const host = { HOME: '/root', PATH: '/bin', API_KEY: 'k', MY_TOKEN: 't', EDITOR: 'vi', LANG: 'C' };
const policy = { inherit: 'all' as const, ignoreDefaultExcludes: false, exclude: [], set: {}, includeOnly: [] };

describe('childEnvironment', () => {
  it('is exactly the explicit env when there is no policy', () => {
    expect(childEnvironment(null, { A: '1' }, host)).toEqual({ A: '1' });
  });

  it('inherits everything but credential-looking names, then lays env over it', () => {
    expect(childEnvironment(policy, { EDITOR: 'nano' }, host)).toEqual({ HOME: '/root', PATH: '/bin', EDITOR: 'nano', LANG: 'C' });
  });

  it('keeps credentials when default excludes are ignored, and applies exclude, set and includeOnly in order', () => {
    const env = childEnvironment(
      { inherit: 'all', ignoreDefaultExcludes: true, exclude: ['lang'], set: { EXTRA: 'x' }, includeOnly: ['*_KEY', 'EXTRA', 'LANG'] },
      {},
      host,
    );
    expect(env).toEqual({ API_KEY: 'k', EXTRA: 'x' });
  });

  it('inherits only the core variables with inherit core, and nothing with none', () => {
    expect(childEnvironment({ ...policy, inherit: 'core' }, {}, host)).toEqual({ HOME: '/root', PATH: '/bin' });
    expect(childEnvironment({ ...policy, inherit: 'none', set: { A: 'b' } }, {}, host)).toEqual({ A: 'b' });
  });
});
