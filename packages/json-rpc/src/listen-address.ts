// The `--listen` address both servers take (`stdio`, `stdio://` or `ws://IP:PORT`) and the rule that
// an unauthenticated WebSocket listener stays on a loopback address, as Codex's app-server requires.
import { isIP } from 'node:net';

/** Why a `--listen` address was refused. */
export class ListenAddressError extends Error {
  override readonly name = 'ListenAddressError';
  constructor(
    /** `InvalidListenAddress`: not a URL we listen on; `UnauthenticatedNonLoopback`: reachable from other machines without auth. */
    readonly code: 'InvalidListenAddress' | 'UnauthenticatedNonLoopback',
    message: string,
  ) {
    super(message);
  }
}

/** A parsed `ws://IP:PORT`. */
export interface WebSocketAddress {
  readonly host: string;
  readonly port: number;
}

/** Where a server listens: one client on stdio, or WebSocket clients on an address. */
export type ListenAddress = { readonly kind: 'stdio' } | ({ readonly kind: 'websocket' } & WebSocketAddress);

/** Parses `ws://IP:PORT` (an IP literal, as Codex requires; port 0 picks a free one). */
export function parseWebSocketAddress(listen: string): WebSocketAddress {
  let url: URL;
  try {
    url = new URL(listen);
  } catch {
    throw new ListenAddressError('InvalidListenAddress', `invalid --listen URL \`${listen}\`; expected \`ws://IP:PORT\` or \`stdio\``);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (url.protocol !== 'ws:' || url.port === '' || isIP(host) === 0 || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ListenAddressError('InvalidListenAddress', `invalid websocket --listen URL \`${listen}\`; expected \`ws://IP:PORT\``);
  }
  return { host, port: Number(url.port) };
}

/** Parses a `--listen` value: `stdio` / `stdio://`, or `ws://IP:PORT`. */
export function parseListenAddress(listen: string): ListenAddress {
  if (listen === 'stdio' || listen === 'stdio://') return { kind: 'stdio' };
  return { kind: 'websocket', ...parseWebSocketAddress(listen) };
}

/** The eight 16-bit groups of an IPv6 literal (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(address: string): number[] {
  const parts = (text: string): number[] =>
    text === ''
      ? []
      : text.split(':').flatMap((part) => {
          if (!part.includes('.')) return [parseInt(part, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
          return [a * 256 + b, c * 256 + d];
        });
  if (!address.includes('::')) return parts(address);
  const [head = '', tail = ''] = address.split('::');
  const before = parts(head);
  const after = parts(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** Whether `host` (an IP literal) is only reachable from this machine: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) !== 6) return false;
  const groups = ipv6Groups(bare);
  const zeros = (count: number): boolean => groups.slice(0, count).every((group) => group === 0);
  if (zeros(7) && groups[7] === 1) return true;
  // ::ffff:127.x.y.z — an IPv4 loopback address written as IPv6.
  return zeros(5) && groups[5] === 0xffff && (groups[6] ?? 0) >> 8 === 127;
}

/**
 * Refuses an unauthenticated WebSocket listener on an address other machines can reach, with the
 * flags that fix it (Codex's app-server refuses the same).
 */
export function checkListenerExposure(address: WebSocketAddress, authenticated: boolean): void {
  if (authenticated || isLoopbackHost(address.host)) return;
  const shown = address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
  throw new ListenAddressError(
    'UnauthenticatedNonLoopback',
    `refusing to start non-loopback websocket listener ${shown} without auth; configure \`--ws-auth capability-token\` ` +
      '(with `--ws-token-file PATH` or `--ws-token-sha256 HEX`) or `--ws-auth signed-bearer-token` (with `--ws-shared-secret-file PATH`), ' +
      'or listen on a loopback address such as `ws://127.0.0.1:PORT`',
  );
}
