// The pairing rules every request's `input` must keep between tool calls and their outputs. A pure
// function, so the rules are testable without a server; the server runs it on each request.
import { isPlainObject } from './internal/plain-object.js';

/** Item types that are a tool call the client must answer. */
export const TOOL_CALL_TYPES: readonly string[] = ['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call'];

/** Item types that answer a tool call. */
export const TOOL_OUTPUT_TYPES: readonly string[] = ['function_call_output', 'custom_tool_call_output', 'tool_search_output'];

/**
 * - `EmptyCallId`: a call or output item without a non-empty string `call_id`.
 * - `OutputWithoutCall`: an output whose call does not come before it in the same input.
 * - `CallWithoutOutput`: a call with no output after it in the same input (Codex fills in an
 *   "aborted" output for every call it could not run, so a request never carries a bare call).
 * - `EmittedCallNotAnswered`: a call the model emitted in the previous response has no output here.
 */
export type ToolCallViolationCode = 'EmptyCallId' | 'OutputWithoutCall' | 'CallWithoutOutput' | 'EmittedCallNotAnswered';

/** One broken pairing rule. */
export interface ToolCallViolation {
  readonly code: ToolCallViolationCode;
  readonly message: string;
  /** Index in `input` of the offending item, when there is one. */
  readonly itemIndex?: number;
  readonly callId?: string;
}

/** Options of `checkToolCallInvariants`. */
export interface ToolCallInvariantOptions {
  /** Call ids the model emitted in the response just before this request; each needs an output here. */
  readonly emittedCallIds?: readonly string[];
}

/**
 * Checks the call/output pairing of one request's `input` and returns every violation (none when
 * the input is sound). Items that are not objects with a string `type` are ignored.
 * @example checkToolCallInvariants(request.body.input, { emittedCallIds: ['call_mock_0002'] })
 */
export function checkToolCallInvariants(
  input: readonly unknown[],
  options: ToolCallInvariantOptions = {},
): ToolCallViolation[] {
  const violations: ToolCallViolation[] = [];
  const calls = new Map<string, number>();
  const answered = new Set<string>();

  input.forEach((item, itemIndex) => {
    if (!isPlainObject(item) || typeof item.type !== 'string') return;
    const isCall = TOOL_CALL_TYPES.includes(item.type);
    if (!isCall && !TOOL_OUTPUT_TYPES.includes(item.type)) return;
    // An output no call asked for names itself instead (Codex's `goal_objective`).
    if (!isCall && item.call_id === undefined && typeof item.name === 'string' && item.name !== '') return;
    const callId = item.call_id;
    if (typeof callId !== 'string' || callId === '') {
      violations.push({ code: 'EmptyCallId', itemIndex, message: `input[${itemIndex}] (${item.type}) has no call_id` });
      return;
    }
    if (isCall) {
      calls.set(callId, itemIndex);
    } else if (calls.has(callId)) {
      answered.add(callId);
    } else {
      violations.push({
        code: 'OutputWithoutCall',
        itemIndex,
        callId,
        message: `input[${itemIndex}] (${item.type}) answers call_id ${callId}, but no tool call with that id comes before it`,
      });
    }
  });

  for (const [callId, itemIndex] of calls) {
    if (answered.has(callId)) continue;
    violations.push({
      code: 'CallWithoutOutput',
      itemIndex,
      callId,
      message: `input[${itemIndex}] is a tool call (call_id ${callId}) with no output after it`,
    });
  }
  for (const callId of options.emittedCallIds ?? []) {
    if (answered.has(callId)) continue;
    violations.push({
      code: 'EmittedCallNotAnswered',
      callId,
      message: `the previous response emitted tool call ${callId}, but this input has no output for it`,
    });
  }
  return violations;
}
