// The hash trust is given to, against what Codex 0.171.0's hooks/list reported for the same hooks
// (probed), so trust written by either tool holds in the other.
import { describe, expect, it } from 'vitest';
import { hookHash } from '../src/index.js';

const command = (event: Parameters<typeof hookHash>[0]['event'], matcher: string | null, commandText: string, timeoutSec = 600, statusMessage: string | null = null, async = false) =>
  hookHash({ event, matcher, handler: { type: 'command', command: commandText, async }, timeoutSec, statusMessage });

describe('hookHash', () => {
  it("matches Codex's hash of an MCP tool hook: its server, tool, input and timeout", () => {
    const hash = hookHash({ event: 'preToolUse', matcher: 'Bash', handler: { type: 'mcpTool', server: 'hooksrv', tool: 'guard', input: {} }, timeoutSec: 600, statusMessage: null });
    expect(hash).toBe('sha256:2e6ae5541389d9a0665ed265967121b70b931eacd4ea09371bc63986ed073435');
  });

  it("matches the hashes Codex reported, whatever the hook's place in its file", () => {
    expect(command('preToolUse', 'Bash', 'x')).toBe('sha256:8b3de0db500a24df6d2c8ddb5e04090edd5f3066951d7e252357fb79bb6bbd16');
    expect(command('preToolUse', null, 'x')).toBe('sha256:250c1e9748c7a3130fcf12b596c40e211966274196ce0e2fec7f5eb707626bb0');
    expect(command('preToolUse', 'Bash', 'x', 5)).toBe('sha256:74f33f8f3256a38dd9b2f0f195f7582257c1219e3d110705aacbad5eaf1f5f98');
    expect(command('postToolUse', 'Bash', 'x')).toBe('sha256:77cba839c4b837674250a9b4a1fc7e1fc7b58ee987103a1d6536085addedb6f6');
    expect(command('userPromptSubmit', null, '/work/probe/hooks/hook.sh prompt', 30)).toBe('sha256:4e2dffa631a56f43a8c0d7ce546084d3afcf78bb5758123e56c2dbc05d41b19b');
    expect(command('preToolUse', 'Bash', 'echo hi', 5, 'Checking')).toBe('sha256:651112bb6045cb14f6110fb3e456512ee964609539a710c82f74e02a13ca5cee');
  });

  it("ignores a matcher on an event that reads none (Stop), as Codex's listing does", () => {
    expect(command('stop', '[', 'y', 600, null, true)).toBe('sha256:5bca8a42e42d8548d47684fcd6d3c2271270d1852ac22bd219f9c3fcf7171020');
  });
});
