// Codex 0.171.0's request headers reduced to their shape (fixtures/codex-request-headers.shape.json,
// from the a2 and h transcripts and probes of the binary): what the exec and app-server tests of
// request metadata compare against.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The recorded shape: header names in order, turn metadata keys in order, the values that do not vary. */
export interface CodexRequestHeaders {
  readonly exec: {
    readonly headers: readonly string[];
    readonly metadataKeys: readonly string[];
    readonly metadata: Readonly<Record<string, unknown>>;
    readonly betaFeatures: string;
    readonly clientMetadataKeys: readonly string[];
  };
  readonly appServer: { readonly headers: readonly string[]; readonly metadataKeys: readonly string[] };
  readonly probed: { readonly resume: string; readonly forkOfLoaded: string; readonly fullAccessSandbox: string };
}

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'codex-request-headers.shape.json');

/** Reads the recorded shape. */
export function codexRequestHeaders(): CodexRequestHeaders {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as CodexRequestHeaders;
}

/** Headers the HTTP client adds (Codex's reqwest and Node's http differ): not part of the contract. */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set(['host', 'connection', 'content-length', 'accept-encoding']);
