// The transport's command-line flags, spelled as Codex spells them for both servers: `--listen` and
// the `--ws-auth` family, as `node:util` parseArgs options.
import type { WebSocketAuthFlags } from './websocket-auth.js';

/** The parseArgs options of the transport flags; spread them into a program's own. */
export const TRANSPORT_FLAG_OPTIONS = {
  listen: { type: 'string' },
  'ws-auth': { type: 'string' },
  'ws-token-file': { type: 'string' },
  'ws-token-sha256': { type: 'string' },
  'ws-shared-secret-file': { type: 'string' },
  'ws-issuer': { type: 'string' },
  'ws-audience': { type: 'string' },
  'ws-max-clock-skew-seconds': { type: 'string' },
} as const;

/** The transport flags as a program's settings hold them. */
export interface TransportFlags extends WebSocketAuthFlags {
  /** `stdio`, `stdio://` or `ws://IP:PORT`; undefined: the program's default. */
  readonly listen?: string | undefined;
}

/** The transport flags out of parseArgs `values` parsed with {@link TRANSPORT_FLAG_OPTIONS}. */
export function readTransportFlags(values: {
  readonly listen?: string | undefined;
  readonly 'ws-auth'?: string | undefined;
  readonly 'ws-token-file'?: string | undefined;
  readonly 'ws-token-sha256'?: string | undefined;
  readonly 'ws-shared-secret-file'?: string | undefined;
  readonly 'ws-issuer'?: string | undefined;
  readonly 'ws-audience'?: string | undefined;
  readonly 'ws-max-clock-skew-seconds'?: string | undefined;
}): TransportFlags {
  return {
    listen: values.listen,
    wsAuth: values['ws-auth'],
    wsTokenFile: values['ws-token-file'],
    wsTokenSha256: values['ws-token-sha256'],
    wsSharedSecretFile: values['ws-shared-secret-file'],
    wsIssuer: values['ws-issuer'],
    wsAudience: values['ws-audience'],
    wsMaxClockSkewSeconds: values['ws-max-clock-skew-seconds'],
  };
}
