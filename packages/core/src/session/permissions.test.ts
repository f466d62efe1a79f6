import { describe, expect, it } from 'vitest';
import { renderEnvironmentContext } from '../context/environment-context.js';
import { threadPermissions } from './permissions.js';

const table = { writableRoots: [], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false };

describe('threadPermissions', () => {
  it('lists workspace-write entries in the order Codex 0.171.0 sends them', () => {
    const { facts, profile } = threadPermissions({ sandboxMode: 'workspace-write', sandboxWorkspaceWrite: table, approvalPolicy: 'never' }, ['/ws']);
    expect(facts).toEqual({ sandboxMode: 'workspace-write', writableRoots: ['/ws'], networkAccess: false, approvalPolicy: 'never' });
    const text = renderEnvironmentContext({ cwd: '/ws', shell: 'bash', currentDate: '2026-11-30', timezone: 'Etc/UTC', workspaceRoots: ['/ws'], permissionProfile: profile });
    // CODEX-FACTS.md §3: root read, workspace write, /tmp and $TMPDIR write, then the protected folders read.
    expect(text).toContain(
      '<file_system type="restricted"><entry access="read"><special>:root</special></entry><entry access="write"><path>/ws</path></entry>' +
        '<entry access="write"><special>:slash_tmp</special></entry><entry access="write"><special>:tmpdir</special></entry>' +
        '<entry access="read"><path>/ws/.git</path></entry><entry access="read"><path>/ws/.agents</path></entry>' +
        '<entry access="read"><path>/ws/.codex</path></entry><entry access="read"><path>/ws/.aws</path></entry></file_system>',
    );
  });

  it('reports extra roots, network and a granular policy; danger-full-access is unrestricted', () => {
    const wide = threadPermissions(
      { sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { ...table, writableRoots: ['/data'], networkAccess: true, excludeSlashTmp: true }, approvalPolicy: { granular: { sandbox_approval: true, rules: true, mcp_elicitations: true } } },
      ['/ws', '/data'],
    );
    expect(wide.facts).toEqual({ sandboxMode: 'workspace-write', writableRoots: ['/ws', '/data'], networkAccess: true, approvalPolicy: 'granular' });
    expect(JSON.stringify(wide.profile)).not.toContain('slash_tmp');
    expect(threadPermissions({ sandboxMode: 'danger-full-access', sandboxWorkspaceWrite: table, approvalPolicy: 'never' }, ['/ws']).profile).toEqual({ type: 'disabled' });
    expect(threadPermissions({ sandboxMode: 'read-only', sandboxWorkspaceWrite: table, approvalPolicy: 'on-request' }, ['/ws']).facts.networkAccess).toBe(false);
  });
});
