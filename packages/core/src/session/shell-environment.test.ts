import { describe, expect, it } from 'vitest';
import { shellEnvironment } from './shell-environment.js';

const host = { PATH: '/usr/bin', HOME: '/home/ada', OPENAI_API_KEY: 'sk-1', GITHUB_TOKEN: 'ghp', AWS_SECRET_ACCESS_KEY: 's', EDITOR: 'vim', LANG: 'C.UTF-8', UNSET: undefined };

describe('shellEnvironment', () => {
  it('inherits everything but credentials by default', () => {
    expect(shellEnvironment({}, host)).toEqual({ PATH: '/usr/bin', HOME: '/home/ada', EDITOR: 'vim', LANG: 'C.UTF-8' });
  });

  it('keeps credentials only when default excludes are ignored', () => {
    expect(shellEnvironment({ ignore_default_excludes: true }, host)).toMatchObject({ OPENAI_API_KEY: 'sk-1', GITHUB_TOKEN: 'ghp' });
  });

  it('applies inherit = core / none, excludes, include_only and set, in that order', () => {
    expect(shellEnvironment({ inherit: 'core' }, host)).toEqual({ PATH: '/usr/bin', HOME: '/home/ada' });
    expect(shellEnvironment({ inherit: 'none', set: { CI: '1' } }, host)).toEqual({ CI: '1' });
    expect(shellEnvironment({ exclude: ['ed*'] }, host)).not.toHaveProperty('EDITOR');
    expect(shellEnvironment({ include_only: ['PATH', 'L?NG'], set: { PATH: '/opt/bin' } }, host)).toEqual({ PATH: '/opt/bin', LANG: 'C.UTF-8' });
  });
});
