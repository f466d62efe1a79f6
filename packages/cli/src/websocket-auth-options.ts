// The `--ws-auth` options `skein app-server` and `skein exec-server` share, as Codex spells them;
// commander hands them over camel-cased, the names @skein/json-rpc's WebSocketAuthFlags use.
import type { Command } from 'commander';

/** Adds the WebSocket auth options to `command`. */
export function addWebSocketAuthOptions(command: Command): Command {
  return command
    .option('--ws-auth <mode>', 'require a bearer token on WebSocket connections: capability-token or signed-bearer-token')
    .option('--ws-token-file <path>', 'capability-token: file holding the token')
    .option('--ws-token-sha256 <hex>', 'capability-token: SHA-256 of the token, instead of the file')
    .option('--ws-shared-secret-file <path>', 'signed-bearer-token: file holding the HS256 secret (at least 32 bytes) the JWTs are signed with')
    .option('--ws-issuer <issuer>', 'signed-bearer-token: the `iss` every JWT must carry')
    .option('--ws-audience <audience>', 'signed-bearer-token: the `aud` every JWT must carry')
    .option('--ws-max-clock-skew-seconds <seconds>', 'signed-bearer-token: clock skew allowed on `exp` and `nbf` (default 30)');
}
