// What a WebSocket listener asks of its auth mode: may this upgrade's `Authorization` header connect?
// Both modes Codex offers answer it — `capability-token` and `signed-bearer-token`.

/** Decides whether a WebSocket upgrade may connect. */
export interface UpgradeAuth {
  /** Undefined lets the client in; otherwise the reason sent back with `401 Unauthorized`. */
  refusal(authorization: string | undefined): Promise<string | undefined>;
}

/** `Authorization: Bearer <token>`'s token; undefined when the header is absent or blank, null when malformed. */
export function bearerToken(authorization: string | undefined): string | undefined | null {
  if (authorization === undefined || authorization.trim() === '') return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1] ?? null;
}

/** What a client without a token is told, in either mode. */
export const MISSING_BEARER_TOKEN = 'missing websocket bearer token: send `Authorization: Bearer <token>`';
