// Reading the output deltas of standalone processes (`command/exec`, `process/spawn`) as a client
// sees them: the bytes of one id's stream so far, and waiting until they contain some text.
import type { AppServerTestClient } from '@skein/test-support';

interface Delta {
  readonly processId?: string;
  readonly processHandle?: string;
  readonly stream: 'stdout' | 'stderr';
  readonly deltaBase64: string;
  readonly capReached: boolean;
}

/** The deltas of `method` for `id` (a processId or processHandle), in arrival order. */
export function deltasOf(client: AppServerTestClient, method: string, id: string): Delta[] {
  return (client.notificationsOf(method) as Delta[]).filter((delta) => (delta.processId ?? delta.processHandle) === id);
}

/** The decoded text of one stream of `id` so far. */
export function streamText(client: AppServerTestClient, method: string, id: string, stream: 'stdout' | 'stderr' = 'stdout'): string {
  const bytes = deltasOf(client, method, id)
    .filter((delta) => delta.stream === stream)
    .map((delta) => Buffer.from(delta.deltaBase64, 'base64'));
  return Buffer.concat(bytes).toString('utf8');
}

/** Resolves once `id`'s stdout contains `text`; rejects with what arrived after `timeoutMs`. */
export async function waitForText(client: AppServerTestClient, method: string, id: string, text: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!streamText(client, method, id).includes(text)) {
    if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(text)} in ${id}'s output: ${JSON.stringify(streamText(client, method, id))}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves once no process with this pid exists (the kernel reaped it or it never existed). */
export async function waitForPidGone(pid: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`process ${pid} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Base64 of a UTF-8 string. */
export const b64 = (text: string): string => Buffer.from(text).toString('base64');
