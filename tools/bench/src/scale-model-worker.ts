// The mock model of the app-server-scale bench, in a worker thread of its own so the clients' work
// on the bench's main thread does not make it late. The bench's own program is the worker's entry
// (`serveScaleModel` runs when it is not the main thread); the bench scripts it phase by phase.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parentPort, Worker } from 'node:worker_threads';
import { assistantMessage, completed, paced, sse, startMockResponsesServer } from '@skein/test-support';

/** A paced answer: a message streamed in this many deltas. */
const PACED_DELTAS = 8;

/** What the bench asks the model worker, and what it answers. */
type ModelRequest = { readonly type: 'script'; readonly count: number; readonly pacedMs: number } | { readonly type: 'lateness' } | { readonly type: 'answerTimes' } | { readonly type: 'close' };
type ModelReply =
  | { readonly type: 'listening'; readonly url: string }
  | { readonly type: 'scripted' }
  | { readonly type: 'lateness'; readonly p99Ms: number; readonly maxMs: number }
  | { readonly type: 'answerTimes'; readonly times: readonly AnswerTime[] }
  | { readonly type: 'closed' };

/** How late the worker's timers ran since the previous question (a paced answer is as late as its last frame's). */
export interface ModelLateness {
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** How long the model held one request: from its arrival to its answer's last byte, a late timer included. */
export interface AnswerTime {
  /** The request's last user message: the label the bench gave its turn. */
  readonly label: string;
  /** When the request arrived and when its answer ended, in ms since the epoch (performance.timeOrigin + now). */
  readonly receivedAt: number;
  readonly answeredAt: number;
}

/** The lateness histograms' tick (ms); Node records each whole interval, so this is taken off. */
export const LATENESS_RESOLUTION_MS = 10;

/** The model worker as the bench drives it. */
export interface ScaleModel {
  /** Provider `base_url`. */
  readonly url: string;
  /** Appends `count` answers: at once (`pacedMs` 0), or streamed over `pacedMs`. */
  script(count: number, pacedMs: number): Promise<void>;
  lateness(): Promise<ModelLateness>;
  /** The model's time for each request answered since the previous call. */
  answerTimes(): Promise<readonly AnswerTime[]>;
  close(): Promise<void>;
}

/** In the worker: the mock Responses server, answering the bench's requests one by one. */
export async function serveScaleModel(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('serveScaleModel runs in a worker thread');
  // The bench's thousands of requests are not kept: a heap growing by every body made the worker's
  // scavenges and mark-compacts (10–16 ms) late answers the bench charged to the server.
  let answered: AnswerTime[] = [];
  const model = await startMockResponsesServer({
    keepRequests: false,
    onAnswered: (request, span) => {
      const label = request.messageTexts('user').at(-1);
      if (label !== undefined) answered.push({ label, receivedAt: performance.timeOrigin + span.receivedAtMs, answeredAt: performance.timeOrigin + span.answeredAtMs });
    },
  });
  const lateness = monitorEventLoopDelay({ resolution: LATENESS_RESOLUTION_MS });
  lateness.enable();
  const answerTimes = (): AnswerTime[] => {
    const times = answered;
    answered = [];
    return times;
  };
  const answer = (pacedMs: number) => {
    if (pacedMs === 0) return sse(assistantMessage('Done.'), completed());
    return paced(sse(assistantMessage(Array.from({ length: PACED_DELTAS }, (_, n) => `part ${n} of a paced answer. `)), completed()), { overMs: pacedMs });
  };
  port.on('message', (request: ModelRequest) => {
    switch (request.type) {
      case 'script':
        model.expect(Array.from({ length: request.count }, () => answer(request.pacedMs)));
        port.postMessage({ type: 'scripted' } satisfies ModelReply);
        return;
      case 'lateness':
        // The histogram records whole intervals between its 10 ms ticks: the lateness is past the 10 ms.
        port.postMessage({ type: 'lateness', p99Ms: Math.max(0, lateness.percentile(99) / 1e6 - LATENESS_RESOLUTION_MS), maxMs: Math.max(0, lateness.max / 1e6 - LATENESS_RESOLUTION_MS) } satisfies ModelReply);
        lateness.reset();
        return;
      case 'answerTimes':
        port.postMessage({ type: 'answerTimes', times: answerTimes() } satisfies ModelReply);
        return;
      case 'close':
        // Unused responses (a warm-up the server skipped) are no failure of the bench.
        void model.close().catch(() => undefined).then(() => port.postMessage({ type: 'closed' } satisfies ModelReply));
        return;
    }
  });
  port.postMessage({ type: 'listening', url: model.url } satisfies ModelReply);
}

/** Starts `entry` (the bench's own program) as the model worker; one question at a time. */
export async function startScaleModel(entry: URL): Promise<ScaleModel> {
  const worker = new Worker(entry);
  const reply = () => new Promise<ModelReply>((resolve, reject) => {
    const onMessage = (message: ModelReply) => {
      worker.off('error', reject);
      resolve(message);
    };
    worker.once('message', onMessage);
    worker.once('error', reject);
  });
  const first = await reply();
  if (first.type !== 'listening') throw new Error(`the model worker answered ${first.type} before listening`);
  const ask = (request: ModelRequest) => {
    const answered = reply();
    worker.postMessage(request);
    return answered;
  };
  return {
    url: first.url,
    script: async (count, pacedMs) => {
      await ask({ type: 'script', count, pacedMs });
    },
    lateness: async () => {
      const answer = await ask({ type: 'lateness' });
      if (answer.type !== 'lateness') throw new Error(`the model worker answered ${answer.type} to lateness`);
      return answer;
    },
    answerTimes: async () => {
      const answer = await ask({ type: 'answerTimes' });
      if (answer.type !== 'answerTimes') throw new Error(`the model worker answered ${answer.type} to answerTimes`);
      return answer.times;
    },
    close: async () => {
      await ask({ type: 'close' });
      await worker.terminate();
    },
  };
}
