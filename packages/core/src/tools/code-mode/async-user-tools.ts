// Code mode's two ways to reach the user without stopping the turn (Codex's `_async` tools, which
// a sub-agent does not get): `send_message_to_user_async` shows a message, `request_user_input_async`
// shows questions the user may answer later, in a turn of their own. Clients see either as an agent
// message delivered `async` under the call's id; the model reads `{"accepted":true}` and goes on.
import { defineFunctionTool, type LeafToolHandler } from '@skein/extension-api';
import * as z from 'zod';
import type { CoreEvent } from '../../turn/core-event.js';
import type { AgentMessageTurnItem, AsyncQuestion } from '../../turn/turn-item.js';

/** What the tools show their messages with. */
export interface AsyncUserToolsBinding {
  readonly emit: (event: CoreEvent) => void;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

const ACCEPTED = JSON.stringify({ accepted: true });

const MessageArgs = z.object({ message: z.string() });
const QuestionsArgs = z.object({
  questions: z.array(z.object({ title: z.string(), options: z.array(z.string()).nullish() })),
});

export function asyncUserTools(binding: AsyncUserToolsBinding): readonly LeafToolHandler[] {
  const show = (callId: string, turnId: string, text: string, questions?: readonly AsyncQuestion[]): void => {
    const now = binding.now();
    const item: AgentMessageTurnItem = { kind: 'agentMessage', id: callId, text, phase: 'final_answer', delivery: 'async', ...(questions === undefined ? {} : { questions }), startedAtMs: now, completedAtMs: now };
    binding.emit({ type: 'turnItem', phase: 'started', turnId, item: { ...item, completedAtMs: null } });
    binding.emit({ type: 'turnItem', phase: 'completed', turnId, item });
  };
  return [
    defineFunctionTool({
      spec: {
        type: 'function',
        name: 'request_user_input_async',
        description: 'Shows the user questions they can answer whenever they like, and returns at once. An answer arrives later as a new message from the user; keep working meanwhile on what does not depend on it.',
        strict: false,
        parameters: {
          type: 'object',
          properties: {
            questions: {
              type: 'array',
              description: 'The questions, each with a title and, when the choice is closed, its options.',
              items: {
                type: 'object',
                properties: {
                  options: { type: 'array', description: 'Answers the user can pick.', items: { type: 'string' }, minItems: 1 },
                  title: { type: 'string', description: 'The question.' },
                },
                required: ['title'],
                additionalProperties: false,
              },
              minItems: 1,
            },
          },
          required: ['questions'],
          additionalProperties: false,
        },
      },
      arguments: QuestionsArgs,
      handle: (args, context) => {
        const refusal = questionsRefusal(args.questions);
        if (refusal !== undefined) return Promise.resolve({ output: refusal, success: false });
        const questions = args.questions.map((question) => ({ title: question.title, options: question.options ?? null }));
        show(context.callId, context.turnId, questionsText(questions), questions);
        return Promise.resolve({ output: ACCEPTED, success: true });
      },
    }),
    defineFunctionTool({
      spec: {
        type: 'function',
        name: 'send_message_to_user_async',
        description: 'Shows the user a message now, without ending your turn: progress worth knowing, or something they should see before you finish.',
        strict: false,
        parameters: { type: 'object', properties: { message: { type: 'string', description: 'What to tell the user.' } }, required: ['message'], additionalProperties: false },
      },
      arguments: MessageArgs,
      handle: (args, context) => {
        if (args.message.trim() === '') return Promise.resolve({ output: 'message must not be empty', success: false });
        show(context.callId, context.turnId, args.message);
        return Promise.resolve({ output: ACCEPTED, success: true });
      },
    }),
  ];
}

/** Codex's refusals of questions the user could not answer. */
function questionsRefusal(questions: readonly { readonly title: string; readonly options?: readonly string[] | null | undefined }[]): string | undefined {
  if (questions.length === 0) return 'questions must not be empty';
  if (questions.some((question) => question.title.trim() === '')) return 'question titles must not be empty';
  if (questions.some((question) => question.options != null && !question.options.some((option) => option.trim() !== ''))) return 'options must contain at least one non-empty answer';
  return undefined;
}

/** The questions as the message shows them: each title, its options as a list, a blank line between. */
function questionsText(questions: readonly AsyncQuestion[]): string {
  return questions.map((question) => [question.title, ...(question.options ?? []).map((option) => `- ${option}`)].join('\n')).join('\n\n');
}
