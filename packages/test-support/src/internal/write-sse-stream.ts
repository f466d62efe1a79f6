// Writes one rendered SSE response to the client as its script asks: held before its start or its
// terminal event, paced over a duration, and ended cleanly or by a reset.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SseResponse } from '../scripted-response.js';
import { writeChunk } from './http-replies.js';
import type { RenderedSse } from './render-sse.js';

/** Sends `rendered`; answers false when the client went away before the last frame. */
export async function writeSseStream(scripted: SseResponse, rendered: RenderedSse, response: ServerResponse): Promise<boolean> {
  // 'completed' holds before the terminal event, or after the last event of a stream that has none (a cut).
  const lastType = rendered.events.at(-1)?.type;
  const terminal = lastType === 'response.completed' || lastType === 'response.failed' || lastType === 'response.incomplete';
  const holdAt = scripted.hold === undefined ? -1 : scripted.hold.before === 'start' ? 0 : terminal ? rendered.frames.length - 1 : rendered.frames.length;
  if (holdAt === 0) await scripted.hold?.until;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    // A clean cut closes the connection after the body; a reset must keep chunked framing, or the
    // client could not tell the dropped socket from the end of a close-delimited body.
    ...(rendered.cut?.reset === false ? { connection: 'close' } : {}),
    ...scripted.headers,
  });
  const gapMs = scripted.pace === undefined || rendered.frames.length === 0 ? 0 : scripted.pace.overMs / rendered.frames.length;
  // Frames keep to a schedule from the start, so a late timer delays one frame, not all after it.
  const pacedFrom = performance.now();
  for (const [index, frame] of rendered.frames.entries()) {
    if (index === holdAt && index > 0) await scripted.hold?.until;
    if (gapMs > 0) await sleep(Math.max(0, pacedFrom + (index + 1) * gapMs - performance.now()));
    if (!(await writeChunk(response, frame))) return false;
  }
  if (holdAt === rendered.frames.length && holdAt > 0) await scripted.hold?.until;
  if (rendered.cut?.reset === true) response.destroy();
  else response.end();
  return true;
}
