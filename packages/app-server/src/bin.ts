#!/usr/bin/env node
// The `skein-app-server` executable: the one place in this package that reads process globals.
import { AppServerSettingsError, parseAppServerArgs, runAppServer } from './run-app-server.js';

let settings;
try {
  settings = parseAppServerArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof AppServerSettingsError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
}
if (settings.help) {
  process.stdout.write('skein-app-server: serve Codex\'s app-server protocol (JSON-RPC v2) over stdio or WebSocket\n');
  process.exit(0);
}
process.exitCode = await runAppServer(settings, { cwd: process.cwd(), env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
