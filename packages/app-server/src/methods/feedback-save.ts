// `feedback/save`: writes a feedback report to the client's `savePath`, a zip archive as Codex
// 0.171.0 writes one (`report.json`, `manifest.json`, and the logs asked for). Skein never uploads
// it (`feedback/upload` is not served): the user decides where the file goes. The archive is
// written owner-only through a temporary file, so a failure leaves no half-written report behind.
import { randomUUID } from 'node:crypto';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppServerErrorCode, FeedbackSaveParams, randomUuidV7 } from '@skein/protocol';
import { AppServerRequestError, refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';

/** The largest log file a report takes; a larger one is left out and the manifest says why. */
export const MAX_FEEDBACK_LOG_BYTES = 16 * 1024 * 1024;

interface ManifestEntry {
  readonly name: string;
  readonly source: string;
  readonly included: boolean;
  readonly reason?: string;
}

/** The thread's rollout file, when the report is about a stored thread. */
async function rolloutOf(context: MethodContext, threadId: string): Promise<string | undefined> {
  const summary = await (await context.server.threads.store()).find(threadId);
  return summary?.path ?? undefined;
}

/** Reads one log for the archive, or says why it was left out. */
async function logEntry(name: string, source: string): Promise<{ manifest: ManifestEntry; bytes?: Uint8Array }> {
  try {
    const info = await stat(source);
    if (!info.isFile()) return { manifest: { name, source, included: false, reason: 'not a file' } };
    if (info.size > MAX_FEEDBACK_LOG_BYTES) return { manifest: { name, source, included: false, reason: `larger than ${MAX_FEEDBACK_LOG_BYTES} bytes` } };
    return { manifest: { name, source, included: true }, bytes: await readFile(source) };
  } catch (error) {
    return { manifest: { name, source, included: false, reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message } };
  }
}

/** Writes `bytes` to `target` owner-only, through a temporary file beside it. */
async function writeOwnerOnly(target: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${target}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The `feedback/save` method. */
export const FEEDBACK_SAVE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'feedback/save',
    defineMethod({
      params: FeedbackSaveParams,
      async handle(params, context) {
        if (!path.isAbsolute(params.savePath)) refuse(`savePath must be an absolute path: ${params.savePath}`);
        if (params.classification.trim() === '') refuse('classification must not be empty');
        const threadId = params.threadId ?? randomUuidV7();
        const logs: { name: string; source: string }[] = [];
        if (params.includeLogs === true && params.threadId != null) {
          const rollout = await rolloutOf(context, params.threadId);
          if (rollout !== undefined) logs.push({ name: 'rollout.jsonl', source: rollout });
        }
        for (const [index, source] of (params.extraLogFiles ?? []).entries()) logs.push({ name: `logs/${index + 1}-${path.basename(source)}`, source });
        const entries = await Promise.all(logs.map((log) => logEntry(log.name, log.source)));
        // fflate loads worker_threads as it starts: only a save should pay for it, not every server start.
        const { zipSync, strToU8 } = await import('fflate');
        const report = {
          classification: params.classification,
          reason: params.reason ?? null,
          threadId,
          tags: params.tags ?? {},
          createdAt: new Date().toISOString(),
          server: { name: 'skein', version: context.server.version, platform: process.platform, arch: process.arch },
        };
        const files: Record<string, Uint8Array> = {
          'report.json': strToU8(`${JSON.stringify(report, null, 2)}\n`),
          'manifest.json': strToU8(`${JSON.stringify(entries.map((entry) => entry.manifest), null, 2)}\n`),
        };
        for (const entry of entries) if (entry.bytes !== undefined) files[entry.manifest.name] = entry.bytes;
        try {
          await writeOwnerOnly(params.savePath, zipSync(files));
        } catch (error) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `could not save feedback to ${params.savePath}: ${(error as Error).message}`);
        }
        // Skein does not hash a prompt for feedback: nothing is sent anywhere to match it against.
        return { savedPath: params.savePath, threadId, promptHash: null };
      },
    }),
  ],
]);
