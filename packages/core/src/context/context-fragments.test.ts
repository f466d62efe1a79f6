import { describe, expect, it } from 'vitest';
import { agentsMdInstructions } from './agents-md.js';
import { localDate, renderEnvironmentContext, renderEnvironmentContextUpdate, renderEnvironmentsUpdate } from './environment-context.js';

const WORKSPACE = '/work/ws';

describe('renderEnvironmentContext', () => {
  it('lists two or more attached environments, each with its own cwd and shell, as Codex 0.171.0 does', () => {
    // Recorded from the real binary with two exec-servers attached (issue 15).
    const text = renderEnvironmentContext({
      cwd: WORKSPACE,
      shell: 'bash',
      environments: [
        { id: 'local', cwd: WORKSPACE, status: 'ready', shell: 'bash' },
        { id: 'win"1', cwd: 'C:\\Users\\ada\\repo', status: 'ready', shell: 'powershell' },
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

  describe('environments still connecting (deferred_executor), as Codex 0.171.0 renders them', () => {
    // Recorded from the real binary: `local` ready, `remote` a slow stdio executor (issue 15).
    const base = { cwd: WORKSPACE, shell: 'bash', currentDate: '2026-12-04', timezone: 'Etc/UTC', workspaceRoots: [WORKSPACE], permissionProfile: { type: 'disabled' } } as const;
    const FILESYSTEM = '  <filesystem><workspace_roots><root>/work/ws</root></workspace_roots><permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile></filesystem>\n';
    const entry = (id: string, primary: string, state: string) => `    <environment id="${id}"${primary}>\n      <cwd>/work/ws</cwd>\n${state}    </environment>\n`;
    const starting = { ...base, environments: [{ id: 'remote', cwd: WORKSPACE, status: 'starting' } as const, { id: 'local', cwd: WORKSPACE, status: 'ready', shell: 'bash' } as const] };
    const ready = { ...base, environments: [{ id: 'remote', cwd: WORKSPACE, status: 'ready', shell: 'bash' } as const, { id: 'local', cwd: WORKSPACE, status: 'ready', shell: 'bash' } as const] };

    it('says `starting` in place of the shell, the first ready one being the primary', () => {
      // Listed by id, whatever the selection order.
      expect(renderEnvironmentContext(starting)).toBe(
        '<environment_context>\n  <environments>\n' +
          entry('local', ' primary="true"', '      <shell>bash</shell>\n') +
          entry('remote', ' primary="false"', '      <status>starting</status>\n') +
          '  </environments>\n  <current_date>2026-12-04</current_date>\n  <timezone>Etc/UTC</timezone>\n' + FILESYSTEM + '</environment_context>',
      );
    });

    it('marks no primary and leaves the file system out while none is ready', () => {
      expect(renderEnvironmentContext({ ...base, environments: [{ id: 'remote', cwd: WORKSPACE, status: 'starting' }] })).toBe(
        '<environment_context>\n  <environments>\n' + entry('remote', '', '      <status>starting</status>\n') + '  </environments>\n  <current_date>2026-12-04</current_date>\n  <timezone>Etc/UTC</timezone>\n</environment_context>',
      );
    });

    it('updates with the environments whose lines changed, or the whole single form', () => {
      // Ready: both entries change (the primary moves back to the first).
      expect(renderEnvironmentsUpdate(starting, ready)).toBe(renderEnvironmentContext(ready));
      expect(renderEnvironmentsUpdate(ready, ready)).toBeUndefined();
      // Failed: only that entry is listed, with the error.
      const failed = { ...base, environments: [{ id: 'local', cwd: WORKSPACE, status: 'ready', shell: 'bash' } as const, { id: 'remote', cwd: WORKSPACE, status: 'failed', error: 'exec-server transport closed' } as const] };
      const wasStarting = { ...base, environments: [{ id: 'local', cwd: WORKSPACE, status: 'ready', shell: 'bash' } as const, { id: 'remote', cwd: WORKSPACE, status: 'starting' } as const] };
      expect(renderEnvironmentsUpdate(wasStarting, failed)).toBe(
        '<environment_context>\n  <environments>\n' +
          entry('remote', ' primary="false"', '      <status>failed</status>\n      <error>exec-server transport closed</error>\n') +
          '  </environments>\n  <current_date>2026-12-04</current_date>\n  <timezone>Etc/UTC</timezone>\n' + FILESYSTEM + '</environment_context>',
      );
      // The only environment became ready: the single form, whole.
      const alone = { ...base, environments: [{ id: 'remote', cwd: WORKSPACE, status: 'ready', shell: 'bash' } as const] };
      expect(renderEnvironmentsUpdate({ ...base, environments: [{ id: 'remote', cwd: WORKSPACE, status: 'starting' }] }, alone)).toBe(
        '<environment_context>\n  <cwd>/work/ws</cwd>\n  <shell>bash</shell>\n  <current_date>2026-12-04</current_date>\n  <timezone>Etc/UTC</timezone>\n' + FILESYSTEM + '</environment_context>',
      );
    });
  });

  it('keeps the single-environment layout when one environment is attached', () => {
    const text = renderEnvironmentContext({
      cwd: WORKSPACE, shell: 'zsh', environments: [{ id: 'remote', cwd: WORKSPACE, status: 'ready', shell: 'zsh' }], currentDate: '2026-11-30', timezone: 'Etc/UTC', workspaceRoots: [WORKSPACE], permissionProfile: { type: 'disabled' },
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

  describe('between turns, as Codex 0.171.0 updates it', () => {
    // Recorded from the real binary: a settings change of the roots, then of the cwd (issue 15).
    const before = { cwd: WORKSPACE, shell: 'bash', currentDate: '2026-12-04', timezone: 'Etc/UTC', workspaceRoots: [WORKSPACE, '/work/extra'], permissionProfile: { type: 'disabled' } } as const;
    const DISABLED = '<permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile>';

    it('leaves out the cwd and shell when only the rest changed, and says nothing when nothing did', () => {
      expect(renderEnvironmentContextUpdate(before, { ...before, workspaceRoots: ['/work/extra'] })).toBe(
        `<environment_context>\n  <current_date>2026-12-04</current_date>\n  <timezone>Etc/UTC</timezone>\n  <filesystem><workspace_roots><root>/work/extra</root></workspace_roots>${DISABLED}</filesystem>\n</environment_context>`,
      );
      expect(renderEnvironmentContextUpdate(before, { ...before })).toBeUndefined();
    });

    it('sends the whole fragment when the cwd changed, and no <workspace_roots> without roots', () => {
      const moved = { ...before, cwd: '/work/ws2' };
      expect(renderEnvironmentContextUpdate(before, moved)).toBe(renderEnvironmentContext(moved));
      expect(renderEnvironmentContext({ ...before, workspaceRoots: [] })).toContain(`  <filesystem>${DISABLED}</filesystem>`);
    });
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
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2026-11-30');
    // UTC's aliases, read without ICU, agree with it.
    for (const zone of ['UTC', 'Etc/GMT', 'GMT', 'Zulu']) {
      expect(localDate(instant, zone)).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(instant));
    }
  });
});

describe('agentsMdInstructions', () => {
  const doc = (path: string, text: string) => ({ path, text });
  const env = (environmentId: string, cwd: string, ...docs: { path: string; text: string }[]) => ({ environmentId, cwd, docs });

  it('wraps the global file and the project doc exactly as Codex 0.171.0 does', () => {
    // shared/reference/codex-transcripts/d_agents_md.json, first request.
    const { text, sources } = agentsMdInstructions(
      WORKSPACE,
      {
        global: doc('/home/u/.codex/AGENTS.md', "# Global user rules\n\n- Sign every answer with '-- oracle'.\n"),
        environments: [env('local', WORKSPACE, doc('/work/ws/AGENTS.md', '# Project rules\n\n- Always answer in French.\n- The secret project word is PAPAYA.\n'))],
      },
      32768,
    );
    expect(text).toBe(
      "# AGENTS.md instructions for /work/ws\n\n<INSTRUCTIONS>\n# Global user rules\n\n- Sign every answer with '-- oracle'.\n\n--- project-doc ---\n\n# Project rules\n\n- Always answer in French.\n- The secret project word is PAPAYA.\n\n</INSTRUCTIONS>",
    );
    expect(sources).toEqual(['/home/u/.codex/AGENTS.md', '/work/ws/AGENTS.md']);
  });

  it('bounds project docs by bytes without splitting a character, and omits an empty fragment', () => {
    expect(agentsMdInstructions(WORKSPACE, { global: undefined, environments: [env('local', WORKSPACE, doc('/w/AGENTS.md', 'ééé'))] }, 3).text).toBe(
      '# AGENTS.md instructions for /work/ws\n\n<INSTRUCTIONS>\né\n</INSTRUCTIONS>',
    );
    expect(agentsMdInstructions(WORKSPACE, { global: undefined, environments: [] }, 100)).toEqual({ text: undefined, sources: [] });
    const globalOnly = agentsMdInstructions(WORKSPACE, { global: doc('/h/AGENTS.md', 'g'), environments: [env('local', WORKSPACE, doc('/w/AGENTS.md', 'p'))] }, 0);
    expect(globalOnly).toEqual({ text: '# AGENTS.md instructions for /work/ws\n\n<INSTRUCTIONS>\ng\n</INSTRUCTIONS>', sources: ['/h/AGENTS.md'] });
  });

  // Probed against Codex 0.171.0 with a local and a remote environment, each in a repository with a
  // doc at its root and one in its cwd.
  const twoEnvironments = {
    global: doc('/h/AGENTS.md', 'GLOBAL RULES\n'),
    environments: [
      env('local', '/a/proj/sub', doc('/a/proj/AGENTS.md', 'A ROOT DOC\n'), doc('/a/proj/sub/AGENTS.md', 'A SUB DOC\n')),
      env('remote', '/b/repo/pkg', doc('/b/repo/AGENTS.md', 'B ROOT DOC\n'), doc('/b/repo/pkg/AGENTS.md', 'B PKG DOC\n')),
    ],
  };

  it('gives each environment with docs a `for <id> with root <cwd>` section, and no cwd in the title', () => {
    const { text, sources } = agentsMdInstructions('/a/proj/sub', twoEnvironments, 32768);
    expect(text).toBe(
      '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nGLOBAL RULES\n\nfor `local` with root /a/proj/sub\n\nA ROOT DOC\n\n\nA SUB DOC\n\n\nfor `remote` with root /b/repo/pkg\n\nB ROOT DOC\n\n\nB PKG DOC\n\n</INSTRUCTIONS>',
    );
    expect(sources).toEqual(['/h/AGENTS.md', '/a/proj/AGENTS.md', '/a/proj/sub/AGENTS.md', '/b/repo/AGENTS.md', '/b/repo/pkg/AGENTS.md']);
  });

  it('shares project_doc_max_bytes among the environments, counting file bytes only; an environment left without docs drops out', () => {
    // 11 + 10 bytes on `local`, then 4 of `remote`'s first file.
    expect(agentsMdInstructions('/a/proj/sub', twoEnvironments, 25).text).toContain('A SUB DOC\n\n\nfor `remote` with root /b/repo/pkg\n\nB RO\n</INSTRUCTIONS>');
    // 11 + 4 bytes: only `local` has docs left, so the one-environment form, with its cwd.
    const cut = agentsMdInstructions('/a/proj/sub', twoEnvironments, 15);
    expect(cut.text).toBe('# AGENTS.md instructions for /a/proj/sub\n\n<INSTRUCTIONS>\nGLOBAL RULES\n\n--- project-doc ---\n\nA ROOT DOC\n\n\nA SU\n</INSTRUCTIONS>');
    expect(cut.sources).toEqual(['/h/AGENTS.md', '/a/proj/AGENTS.md', '/a/proj/sub/AGENTS.md']);
    // Only the second environment has docs: the title names its cwd.
    const second = agentsMdInstructions('/a/proj/sub', { ...twoEnvironments, environments: [env('local', '/a/proj/sub'), twoEnvironments.environments[1]!] }, 32768);
    expect(second.text?.split('\n')[0]).toBe('# AGENTS.md instructions for /b/repo/pkg');
  });
});
