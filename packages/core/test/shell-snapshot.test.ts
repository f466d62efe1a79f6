// Shell snapshots through UnifiedExecSessions and real bash processes: the login profile runs once
// per executor, shell, cwd and starting environment, every later command gets the environment it
// exported, the snapshot is shared by every thread's sessions on one executor, and a capture that
// fails leaves commands running a login shell each, as without snapshots.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalProcesses } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { UnifiedExecSessions, type UnifiedExecEvent } from '../src/tools/unified-exec/unified-exec-sessions.js';

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A home whose login profile counts its runs, exports a variable and defines a function. */
function homeWithProfile(extra = ''): string {
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-shell-snapshot-')));
  dirs.push(home);
  writeFileSync(path.join(home, '.bash_profile'), `echo run >> "$HOME/profile-runs"\nexport FROM_PROFILE=yes\nprofile_fn() { echo fn; }\n${extra}`);
  return home;
}

const profileRuns = (home: string) => (existsSync(path.join(home, 'profile-runs')) ? readFileSync(path.join(home, 'profile-runs'), 'utf8').split('\n').filter(Boolean).length : 0);

function localProcesses(): LocalProcesses {
  const processes = new LocalProcesses();
  closers.push(() => processes.close());
  return processes;
}

function sessionsOn(processes: LocalProcesses, home: string, shellSnapshots: boolean, events: UnifiedExecEvent[] = []): UnifiedExecSessions {
  const sessions = new UnifiedExecSessions({ processes, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, defaultShell: '/bin/bash', shellSnapshots, onEvent: (event) => events.push(event), monotonicMs: () => performance.now() });
  closers.push(() => sessions.closeAll());
  return sessions;
}

async function run(sessions: UnifiedExecSessions, cwd: string, cmd: string, login?: boolean): Promise<string> {
  const response = await sessions.execCommand({ callId: `call_${Math.random()}`, cmd, cwd: PathUri.fromNativePath(cwd, 'posix'), sandbox: null, login, yieldTimeMs: 10_000 });
  return response.output;
}

const PROBE = 'echo "from=$FROM_PROFILE"; type profile_fn >/dev/null 2>&1 && echo has-fn || echo no-fn';

describe('shell snapshots', () => {
  it('runs the login profile once and gives every later command the environment it exported', async () => {
    const home = homeWithProfile();
    const events: UnifiedExecEvent[] = [];
    const sessions = sessionsOn(localProcesses(), home, true, events);
    for (let index = 0; index < 3; index++) expect(await run(sessions, home, PROBE)).toBe('from=yes\nno-fn\n');
    expect(profileRuns(home)).toBe(1);
    // Clients still see the login-shell form Codex shows.
    expect(events.find((event) => event.type === 'begin')).toMatchObject({ command: `/bin/bash -lc '${PROBE.replaceAll("'", `'"'"'`)}'` });
    // A command that asks for no login shell gets neither the profile nor the snapshot.
    expect(await run(sessions, home, PROBE, false)).toBe('from=\nno-fn\n');
    expect(profileRuns(home)).toBe(1);
  });

  it('is shared by every session on one executor, and captured again for another cwd', async () => {
    const home = homeWithProfile();
    const processes = localProcesses();
    const other = path.join(home, 'other');
    mkdirSync(other);
    const first = sessionsOn(processes, home, true);
    const second = sessionsOn(processes, home, true);
    expect(await run(first, home, PROBE)).toBe('from=yes\nno-fn\n');
    expect(await run(second, home, PROBE)).toBe('from=yes\nno-fn\n');
    expect(profileRuns(home)).toBe(1);
    expect(await run(second, other, 'pwd; echo "from=$FROM_PROFILE"')).toBe(`${other}\nfrom=yes\n`);
    expect(profileRuns(home)).toBe(2);
  });

  it('runs the profile for every command when snapshots are off', async () => {
    const home = homeWithProfile();
    const sessions = sessionsOn(localProcesses(), home, false);
    for (let index = 0; index < 3; index++) expect(await run(sessions, home, PROBE)).toBe('from=yes\nhas-fn\n');
    expect(profileRuns(home)).toBe(3);
  });

  it('falls back to a login shell per command when the capture fails', async () => {
    // A profile whose `env` cannot print the environment: the capture exits non-zero.
    const home = homeWithProfile('env() { return 3; }\n');
    const sessions = sessionsOn(localProcesses(), home, true);
    for (let index = 0; index < 2; index++) expect(await run(sessions, home, PROBE)).toBe('from=yes\nhas-fn\n');
    // The failed capture ran it once; each command once more.
    expect(profileRuns(home)).toBe(3);
  });
});
