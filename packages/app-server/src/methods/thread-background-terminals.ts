// `thread/backgroundTerminals/list|terminate|clean`: the commands exec_command left running in a
// loaded thread (a dev server, a watch build), listed and ended between turns as Codex's TUI does
// with `/ps` and `/stop`. The process id is the session id the model addresses the command by.
import { AppServerErrorCode, ThreadBackgroundTerminalsListParams, ThreadBackgroundTerminalsTerminateParams, ThreadIdParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { paginate } from '../pagination.js';

/** The background terminal methods. */
export const THREAD_BACKGROUND_TERMINALS_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/backgroundTerminals/list',
    defineMethod({
      params: ThreadBackgroundTerminalsListParams,
      handle(params, { server }) {
        const terminals = server.threads.loaded(params.threadId).handle.backgroundTerminals.list();
        // Skein does not sample its commands' CPU and memory; Codex leaves them null too.
        const listed = terminals.map((terminal) => ({ itemId: terminal.callId, processId: String(terminal.sessionId), command: terminal.command, cwd: terminal.cwd, osPid: null, cpuPercent: null, rssKb: null }));
        return paginate(listed, params);
      },
    }),
  ],
  [
    'thread/backgroundTerminals/terminate',
    defineMethod({
      params: ThreadBackgroundTerminalsTerminateParams,
      async handle(params, { server }) {
        const thread = server.threads.loaded(params.threadId);
        return { terminated: await thread.handle.backgroundTerminals.terminate(processIdOf(params.processId)) };
      },
    }),
  ],
  [
    'thread/backgroundTerminals/clean',
    defineMethod({
      params: ThreadIdParams,
      async handle(params, { server }) {
        await server.threads.loaded(params.threadId).handle.backgroundTerminals.clean();
        return {};
      },
    }),
  ],
]);

/** A listed process id as a number; otherwise -32600 in the words of Rust's integer parser, as Codex answers. */
function processIdOf(raw: string): number {
  const problem = raw === '' ? 'cannot parse integer from empty string' : !/^[+-]?\d+$/.test(raw) || raw === '+' || raw === '-' ? 'invalid digit found in string' : Math.abs(Number(raw)) > MAX_PROCESS_ID ? `number too ${raw.startsWith('-') ? 'small' : 'large'} to fit in target type` : undefined;
  if (problem !== undefined) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid background terminal process id: ${problem}`);
  return Number(raw);
}

/** Codex reads the id as a 32-bit signed integer. */
const MAX_PROCESS_ID = 2 ** 31 - 1;
