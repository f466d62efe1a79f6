// Where plugin recommendations come from: Codex asks its backend (`/ps/plugins/suggested/codex`,
// answered as `{enabled, plugins: [{id, name, display_name}]}`); Skein reads the same answer from
// the endpoint or file `[skein] plugin_recommendations` names. Every answer is checked with zod.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { parsePluginId } from '../names.js';
import { PluginError } from '../plugin-error.js';

/** How long an endpoint has to answer before the thread goes on without recommendations. */
export const RECOMMENDATIONS_TIMEOUT_MS = 5_000;
/** The largest answer read. */
const MAX_ANSWER_BYTES = 1024 * 1024;

const RecommendationsJson = z.looseObject({
  enabled: z.boolean().optional(),
  plugins: z.array(z.looseObject({ id: z.string().min(1), name: z.string().nullish(), display_name: z.string().nullish() })),
});

/** A plugin worth suggesting, by id (`<plugin>@<marketplace>`). */
export interface RecommendedPlugin {
  readonly id: string;
  readonly displayName: string;
}

/** The recommendations at `source` (an `http(s)://` URL or an absolute file path); none when the answer says it is off. */
export async function readRecommendations(source: string, signal?: AbortSignal): Promise<RecommendedPlugin[]> {
  const text = /^https?:\/\//.test(source) ? await fetchText(source, signal) : await readLocal(source);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PluginError('InvalidManifest', `plugin recommendations from ${source} are not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = RecommendationsJson.safeParse(json);
  if (!parsed.success) throw new PluginError('InvalidManifest', `plugin recommendations from ${source} do not parse: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}`);
  if (parsed.data.enabled === false) return [];
  // Both reach the model's context: an id must be a plugin id, and a name stays one plain line.
  return parsed.data.plugins.filter((plugin) => isPluginId(plugin.id)).map((plugin) => ({ id: plugin.id, displayName: plainName(plugin.display_name ?? plugin.name ?? plugin.id) }));
}

function isPluginId(id: string): boolean {
  try {
    parsePluginId(id);
    return true;
  } catch {
    return false;
  }
}

/** At most 80 characters, no markup or line breaks. */
function plainName(name: string): string {
  return name.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim().slice(0, 80);
}

async function readLocal(file: string): Promise<string> {
  if (!path.isAbsolute(file)) throw new PluginError('InvalidRequest', `plugin recommendations must be an http(s) URL or an absolute path, got ${file}`);
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new PluginError('NotFound', `cannot read plugin recommendations ${file}: ${(error as Error).message}`, { cause: error });
  });
  if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw new PluginError('InvalidManifest', `plugin recommendations ${file} are over ${MAX_ANSWER_BYTES} bytes`);
  return text;
}

async function fetchText(url: string, signal: AbortSignal | undefined): Promise<string> {
  const timeout = AbortSignal.timeout(RECOMMENDATIONS_TIMEOUT_MS);
  const response = await fetch(url, { headers: { accept: 'application/json', 'oai-product-sku': 'codex' }, signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) }).catch((error: unknown) => {
    throw new PluginError('NotFound', `cannot reach plugin recommendations at ${url}: ${(error as Error).message}`, { cause: error });
  });
  if (!response.ok) throw new PluginError('NotFound', `plugin recommendations at ${url} answered ${response.status}`);
  if (Number(response.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) throw new PluginError('InvalidManifest', `plugin recommendations at ${url} are over ${MAX_ANSWER_BYTES} bytes`);
  const text = await response.text();
  if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw new PluginError('InvalidManifest', `plugin recommendations at ${url} are over ${MAX_ANSWER_BYTES} bytes`);
  return text;
}
