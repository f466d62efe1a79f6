// Runs one model request under its observers (PreModelRequest and PostModelRequest hooks): they are
// told before it is sent and once it completed or failed. They watch: one that throws is a warning,
// never the request's error.
import { randomUUID } from 'node:crypto';
import type { ModelRequestObserver, ModelRequestResult, TurnStep } from './turn-hooks.js';

/** Sends `send` with `observers` told around it; `resultOf` says how a completed response went. */
export async function observeModelRequest<T>(
  observers: readonly ModelRequestObserver[],
  step: TurnStep,
  warn: (message: string) => void,
  send: () => Promise<T>,
  resultOf: (response: T) => ModelRequestResult,
): Promise<T> {
  if (observers.length === 0) return send();
  const request = { requestId: randomUUID() };
  const tell = async (observe: (observer: ModelRequestObserver) => Promise<void>) => {
    for (const observer of observers) await observe(observer).catch((error: unknown) => warn(`${observer.name}: ${error instanceof Error ? error.message : String(error)}`));
  };
  await tell((observer) => observer.beforeRequest(step, request));
  let response: T;
  try {
    response = await send();
  } catch (error) {
    await tell((observer) => observer.afterRequest(step, request, { status: 'failed', error: error instanceof Error ? error.message : String(error) }));
    throw error;
  }
  await tell((observer) => observer.afterRequest(step, request, resultOf(response)));
  return response;
}
