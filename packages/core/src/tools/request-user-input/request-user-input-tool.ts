// The request_user_input tool: Codex 0.171.0's name and parameter schema (our descriptions). The model's
// questions go to the client through ClientRequests; the answers come back as the tool output, in Codex's JSON.
import type { FunctionToolHandler, ToolContext, ToolResult } from '@skein/extension-api';
import type { FunctionToolSpec } from '@skein/protocol';
import * as z from 'zod';
import type { ClientRequests, UserInputAnswers, UserInputQuestion } from '../../session/client-requests.js';
import { lazySchema } from '@skein/protocol';

/** One choice the model offers. */
export const RequestUserInputOption = lazySchema(() => z.object({ label: z.string(), description: z.string() }));
export type RequestUserInputOption = z.infer<typeof RequestUserInputOption>;

/**
 * One question. `options` is required by the schema the model sees; a call without it (or with an
 * empty list) is parsed and then refused with a message, as Codex refuses it.
 */
export const RequestUserInputQuestion = lazySchema(() => z.object({
  id: z.string(),
  header: z.string(),
  question: z.string(),
  options: z.array(RequestUserInputOption).nullish(),
}));
export type RequestUserInputQuestion = z.infer<typeof RequestUserInputQuestion>;

/** request_user_input's arguments. */
export const RequestUserInputArgs = lazySchema(() => z.object({ questions: z.array(RequestUserInputQuestion) }));
export type RequestUserInputArgs = z.infer<typeof RequestUserInputArgs>;

/** request_user_input's definition, as offered to the model. */
export const REQUEST_USER_INPUT_SPEC: FunctionToolSpec = {
  type: 'function',
  name: 'request_user_input',
  description:
    'Asks the user one to three short multiple-choice questions and waits for the answers. Say in a message first what you need to decide and why; the user can always answer in their own words instead of picking an option.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        description: 'The questions, usually one and never more than three.',
        items: {
          type: 'object',
          properties: {
            header: { type: 'string', description: 'A label of at most 12 characters shown above the question.' },
            id: { type: 'string', description: 'A snake_case key; the answer comes back under it.' },
            options: {
              type: 'array',
              description:
                'Two or three choices that exclude each other, the recommended one first with "(Recommended)" after its label. Do not add an "Other" choice; the client offers free-form answers itself.',
              items: {
                type: 'object',
                properties: {
                  description: { type: 'string', description: 'One short sentence on what picking it means.' },
                  label: { type: 'string', description: 'What the user sees, in one to five words.' },
                },
                required: ['label', 'description'],
                additionalProperties: false,
              },
            },
            question: { type: 'string', description: 'The question itself, in one sentence.' },
          },
          required: ['id', 'header', 'question', 'options'],
          additionalProperties: false,
        },
      },
    },
    required: ['questions'],
    additionalProperties: false,
  },
};

/** Options of {@link requestUserInputTool}. */
export interface RequestUserInputToolOptions {
  /**
   * Who answers. Without a client (a headless run) every call is answered with no answers at all,
   * `{"answers":{}}`, as `codex exec` does.
   */
  readonly client: ClientRequests | undefined;
  /**
   * A refusal for calls this turn may not make, or undefined to ask. Codex 0.171.0 refuses outside
   * Plan mode ("unavailable in Default mode") unless `default_mode_request_user_input` is on; the host
   * decides. Without it every call is asked.
   */
  refusal?(context: ToolContext): string | undefined;
}

/**
 * The request_user_input tool. Each question reaches the client with `isOther: true` (the client
 * offers a free-form answer besides the options) and `isSecret: false`, as Codex sends them; the
 * answers return as `{"answers":{"<id>":{"answers":["…"]}}}`. An interrupt while waiting rejects
 * with the turn's abort reason, so the turn records the aborted output for the call.
 */
export function requestUserInputTool(options: RequestUserInputToolOptions): FunctionToolHandler<RequestUserInputArgs> {
  return {
    kind: 'function',
    spec: REQUEST_USER_INPUT_SPEC,
    arguments: RequestUserInputArgs,
    async handle(args, context): Promise<ToolResult> {
      const refusal = options.refusal?.(context);
      if (refusal !== undefined) return { output: refusal, success: false };
      if (args.questions.length === 0) return { output: 'request_user_input needs at least one question', success: false };
      if (args.questions.some((question) => question.options == null || question.options.length === 0)) {
        return { output: 'request_user_input needs at least one option for every question', success: false };
      }
      if (options.client === undefined) return answer({});
      const questions = args.questions.map(
        (question): UserInputQuestion => ({
          id: question.id,
          header: question.header,
          question: question.question,
          options: question.options ?? null,
          isOther: true,
          isSecret: false,
        }),
      );
      const request = { turnId: context.turnId, callId: context.callId, questions };
      // An interrupted turn asks nobody; the rejection lets the turn record the aborted output.
      context.signal.throwIfAborted();
      let answers: UserInputAnswers;
      try {
        answers = await untilAborted(options.client.requestUserInput(request, context.signal), context.signal);
      } catch (error) {
        if (context.signal.aborted) throw error;
        return { output: 'request_user_input ended before the user answered', success: false };
      }
      return answer(answers);
    },
  };
}

/** Codex's output: the answers keyed by question id, each `{answers: [...]}` and nothing else. */
function answer(answers: UserInputAnswers): ToolResult {
  const body: Record<string, { answers: string[] }> = {};
  for (const [id, entry] of Object.entries(answers)) body[id] = { answers: [...entry.answers] };
  return { output: JSON.stringify({ answers: body }), success: true };
}

/** The client's answer, or a rejection with the abort reason as soon as the turn is interrupted (a client may not listen to the signal). */
async function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('the turn was interrupted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([pending, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
