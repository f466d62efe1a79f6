import { describe, expect, it } from 'vitest';
import { renderAgentsMd } from './agents-md.js';
import { localDate, renderEnvironmentContext } from './environment-context.js';

const WORKSPACE = '/work/ws';

describe('renderEnvironmentContext', () => {
  it('lists two or more attached environments, each with its own cwd and shell, as Codex 0.171.0 does', () => {
    // Recorded from the real binary with two exec-servers attached (issue 15).
    const text = renderEnvironmentContext({
      cwd: WORKSPACE,
      shell: 'bash',
      environments: [
        { id: 'local', cwd: WORKSPACE, shell: 'bash' },
        { id: 'win"1', cwd: 'C:\\Users\\ada\\repo', shell: 'powershell' },
      ],
      currentDate: '2026-11-30',
      timezone: 'Etc/UTC',
      workspaceRoots: [WORKSPACE],
      permissionProfile: { type: 'disabled' },
    });
    expect(text).toBe(
      '<environment_context>\n  <environments>\n' +
        '    <environment id="local" primary="true">\n      <cwd>/work/ws</cwd>\n      <shell>bash</shell>\n    </environment>\n' +
        '    <environment id="win&quot;1" primary="false">\n      <cwd>C:\\Users\\ada\\repo</cwd>\n      <shell>powershell</shell>\n    </environment>\n' +
        '  </environments>\n  <current_date>2026-11-30</current_date>\n  <timezone>Etc/UTC</timezone>\n' +
        '  <filesystem><workspace_roots><root>/work/ws</root></workspace_roots><permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile></filesystem>\n</environment_context>',
    );
  });

  it('keeps the single-environment layout when one environment is attached', () => {
    const text = renderEnvironmentContext({
      cwd: WORKSPACE, shell: 'zsh', environments: [{ id: 'remote', cwd: WORKSPACE, shell: 'zsh' }], currentDate: '2026-11-30', timezone: 'Etc/UTC', workspaceRoots: [WORKSPACE], permissionProfile: { type: 'disabled' },
    });
    expect(text).toContain('<environment_context>\n  <cwd>/work/ws</cwd>\n  <shell>zsh</shell>\n');
  });

  it('renders read-only exactly as Codex 0.171.0 sends it', () => {
    // shared/reference/CODEX-FACTS.md §3, with <WORKSPACE> and <DATE> filled in.
    expect(
      renderEnvironmentContext({
        cwd: WORKSPACE,
        shell: 'bash',
        currentDate: '2026-11-30',
        timezone: 'Etc/UTC',
        workspaceRoots: [WORKSPACE],
        permissionProfile: { type: 'managed', entries: [{ access: 'read', target: { special: 'root' } }] },
      }),
    ).toBe(
      '<environment_context>\n  <cwd>/work/ws</cwd>\n  <shell>bash</shell>\n  <current_date>2026-11-30</current_date>\n  <timezone>Etc/UTC</timezone>\n' +
        '  <filesystem><workspace_roots><root>/work/ws</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry></file_system></permission_profile></filesystem>\n</environment_context>',
    );
  });

  it('renders workspace-write entries in order and danger-full-access as unrestricted', () => {
    const entries = [
      { access: 'read', target: { special: 'root' } },
      { access: 'write', target: { path: WORKSPACE } },
      { access: 'write', target: { special: 'slash_tmp' } },
      { access: 'write', target: { special: 'tmpdir' } },
      { access: 'read', target: { path: `${WORKSPACE}/.git` } },
    ] as const;
    const text = renderEnvironmentContext({
      cwd: WORKSPACE, shell: 'bash', currentDate: '2026-11-30', timezone: 'Etc/UTC', workspaceRoots: [WORKSPACE],
      permissionProfile: { type: 'managed', entries },
    });
    expect(text).toContain(
      '<entry access="read"><special>:root</special></entry><entry access="write"><path>/work/ws</path></entry><entry access="write"><special>:slash_tmp</special></entry><entry access="write"><special>:tmpdir</special></entry><entry access="read"><path>/work/ws/.git</path></entry>',
    );
    const open = renderEnvironmentContext({
      cwd: WORKSPACE, shell: 'zsh', currentDate: '2026-11-30', timezone: 'Asia/Seoul', workspaceRoots: [WORKSPACE], permissionProfile: { type: 'disabled' },
    });
    expect(open).toContain('<permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile>');
  });

  it('escapes markup in paths', () => {
    const text = renderEnvironmentContext({
      cwd: '/a<b>&c', shell: 'bash', currentDate: '2026-11-30', timezone: 'Etc/UTC', workspaceRoots: [], permissionProfile: { type: 'disabled' },
    });
    expect(text).toContain('<cwd>/a&lt;b&gt;&amp;c</cwd>');
  });

  it('computes the local date in the given zone', () => {
    const instant = new Date('2026-11-30T23:30:00Z');
    expect(localDate(instant, 'Etc/UTC')).toBe('2026-11-30');
    expect(localDate(instant, 'Asia/Seoul')).toBe('2026-12-01');
  });
});

describe('renderAgentsMd', () => {
  it('wraps the global file and the project doc exactly as Codex 0.171.0 does', () => {
    // shared/reference/codex-transcripts/d_agents_md.json, first request.
    const text = renderAgentsMd(
      WORKSPACE,
      {
        global: "# Global user rules\n\n- Sign every answer with '-- oracle'.\n",
        projectDocs: ['# Project rules\n\n- Always answer in French.\n- The secret project word is PAPAYA.\n'],
      },
      32768,
    );
    expect(text).toBe(
      "# AGENTS.md instructions for /work/ws\n\n<INSTRUCTIONS>\n# Global user rules\n\n- Sign every answer with '-- oracle'.\n\n--- project-doc ---\n\n# Project rules\n\n- Always answer in French.\n- The secret project word is PAPAYA.\n\n</INSTRUCTIONS>",
    );
  });

  it('bounds project docs by bytes without splitting a character, and omits an empty fragment', () => {
    const text = renderAgentsMd(WORKSPACE, { global: undefined, projectDocs: ['ééé'] }, 3);
    expect(text).toBe('# AGENTS.md instructions for /work/ws\n\n<INSTRUCTIONS>\né\n</INSTRUCTIONS>');
    expect(renderAgentsMd(WORKSPACE, { global: '  ', projectDocs: [] }, 100)).toBeUndefined();
    expect(renderAgentsMd(WORKSPACE, { global: 'g', projectDocs: ['p'] }, 0)).toContain('<INSTRUCTIONS>\ng\n</INSTRUCTIONS>');
  });
});
