#!/usr/bin/env node
// The `skein-exec-server` executable: the one place in this package that reads process globals and exits.
import { ExecServerSettingsError, parseExecServerArgs, runExecServer } from './run-exec-server.js';

let settings;
try {
  settings = parseExecServerArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ExecServerSettingsError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
}
if (settings.help) {
  process.stdout.write(
    'skein-exec-server: serve this machine\'s files and processes over Codex\'s exec-server protocol\n\n' +
      '  --listen ws://IP:PORT | stdio    where to listen (default ws://127.0.0.1:0; the URL is printed)\n' +
      '  --ws-auth capability-token       require `Authorization: Bearer <token>` on WebSocket upgrades\n' +
      '  --ws-token-file PATH             the token (surrounding whitespace ignored)\n' +
      '  --ws-token-sha256 HEX            or only its SHA-256\n' +
      '  --ws-auth signed-bearer-token    require `Authorization: Bearer <JWT>`, HS256-signed with a shared secret\n' +
      '  --ws-shared-secret-file PATH     the secret (at least 32 bytes); --ws-issuer, --ws-audience and\n' +
      '                                   --ws-max-clock-skew-seconds (default 30) check the claims\n' +
      '  --concurrent-requests N          requests one connection runs at once (default 1)\n' +
      '  --max-request-bytes N            the largest request acted on\n' +
      '  --exit-on-stdin-close            exit when standard input closes\n',
  );
  process.exit(0);
}
process.exitCode = await runExecServer(settings, {
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
// Sockets and timers of a stopped server must not keep the process alive.
process.exit();
