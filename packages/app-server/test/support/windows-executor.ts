// A real Windows executor for the environment tests: Codex 0.171.0's own Windows binary run by Wine
// (`tools/windows-executor/prepare.sh` fetches it and builds the one DLL Wine 8 lacks). Its
// `codex exec-server` reports a Windows environment (powershell, `C:\…` paths) and serves this
// host's files under `Z:\`. Without it the tests are skipped with the reason, unless
// SKEIN_REQUIRE_WINDOWS_EXECUTOR is set (CI prepares it), where its absence fails them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const PREPARED = path.join(ROOT, '.cache', 'windows-executor');
const PREFIX = path.join(PREPARED, 'prefix');
// The Codex version the repo pins, as prepare.sh fetched it.
const CODEX_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@openai/codex'];
const CODEX_EXE = path.join(PREPARED, `codex-${CODEX_VERSION}`, 'codex.exe');
/** The Wine prepare.sh made the prefix with (it writes the path down). */
const WINE_FILE = path.join(PREPARED, 'wine');

function preparedWine(): string | undefined {
  if (!existsSync(WINE_FILE)) return undefined;
  const wine = readFileSync(WINE_FILE, 'utf8').trim();
  return existsSync(wine) ? wine : undefined;
}

/** The host path `posixPath` as the Windows executor names it (Wine maps `/` to `Z:\`). */
export function windowsPathOf(posixPath: string): string {
  return `Z:${posixPath.replaceAll('/', '\\')}`;
}

/** Why the Windows executor cannot run here, as a test-title suffix; '' when it can. */
export function windowsExecutorSkip(): string {
  const ready = existsSync(CODEX_EXE) && existsSync(path.join(PREFIX, '.ready'));
  const missing = !ready || !existsSync(WINE_FILE) ? 'run tools/windows-executor/prepare.sh first (it needs wine64 and MinGW-w64)' : preparedWine() === undefined ? 'the Wine that prepared it is gone' : '';
  if (missing === '') return '';
  if (process.env['SKEIN_REQUIRE_WINDOWS_EXECUTOR'] === '1') throw new Error(`the Windows executor is required here but cannot run: ${missing}`);
  return ` (skipped: ${missing})`;
}

/** A running `codex.exe exec-server` under Wine. */
export interface WindowsExecutor {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts Codex's Windows exec-server on a loopback WebSocket; resolves with its URL once it listens. */
export async function startWindowsExecutor(home: string): Promise<WindowsExecutor> {
  const wine = preparedWine();
  if (wine === undefined) throw new Error('run tools/windows-executor/prepare.sh first');
  const env = { PATH: process.env['PATH'], HOME: home, WINEPREFIX: PREFIX, WINEDEBUG: '-all' };
  const child: ChildProcess = spawn(wine, [CODEX_EXE, 'exec-server', '--listen', 'ws://127.0.0.1:0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4096)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`codex.exe exec-server printed no URL within 60 s: ${stderr}`)), 60_000);
    lines.on('line', (line) => {
      if (!line.startsWith('ws://')) return;
      clearTimeout(timer);
      lines.close();
      resolve(line.trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`codex.exe exec-server exited (${code}) before listening: ${stderr}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      // Wine keeps its server (and the Windows process it ran) alive for a while after a client goes.
      spawnSync(path.join(path.dirname(wine), 'wineserver'), ['-k'], { env, stdio: 'ignore' });
    },
  };
}
