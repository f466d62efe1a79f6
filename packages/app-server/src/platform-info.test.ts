import { describe, expect, it } from 'vitest';
import { platformInfo } from './platform-info.js';

describe('platformInfo', () => {
  it('reports the platform family and OS as Codex names them', () => {
    expect(platformInfo('linux')).toEqual({ platformFamily: 'unix', platformOs: 'linux' });
    expect(platformInfo('darwin')).toEqual({ platformFamily: 'unix', platformOs: 'macos' });
    expect(platformInfo('win32')).toEqual({ platformFamily: 'windows', platformOs: 'windows' });
  });
});
