import { describe, expect, it } from 'vitest';
import { localHostFacts } from './local-environment.js';

describe('localHostFacts', () => {
  it('takes the time zone from TZ when set, without its leading colon', () => {
    expect(localHostFacts({ TZ: 'Europe/Paris' }).timezone).toBe('Europe/Paris');
    expect(localHostFacts({ TZ: ':America/New_York' }).timezone).toBe('America/New_York');
  });

  it('names UTC as Etc/UTC, as Codex does', () => {
    expect(localHostFacts({ TZ: 'UTC' }).timezone).toBe('Etc/UTC');
  });

  it('without TZ, names the zone ICU names for this host (read from /etc/localtime where it links to one)', () => {
    const icu = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(localHostFacts({}).timezone).toBe(icu === 'UTC' ? 'Etc/UTC' : icu);
  });

  it('reports the shell by its name', () => {
    expect(localHostFacts({ SHELL: '/usr/bin/zsh' }).shell).toBe('zsh');
    expect(localHostFacts({}).shell).toBe('bash');
  });
});
