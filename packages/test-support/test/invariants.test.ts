// The server checks tool call pairing on every request as it arrives and reports breaks on verify().
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, customToolCall, functionCall, sse, startMockResponsesServer } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = { type: 'function_call', id: 'fc_mock_0001', name: 'exec_command', arguments: '{"cmd":"echo hi"}', call_id: 'call_mock_0002' };
const output = { type: 'function_call_output', call_id: 'call_mock_0002', output: 'hi\n' };

describe('tool call invariants on captured requests', () => {
  it('finds nothing wrong in a valid two-request tool call exchange', async () => {
    server = await startMockResponsesServer({
      responses: [sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()), sse(assistantMessage('It printed hi.'), completed())],
    });

    await post(server.url, responsesBody([userMessage('Run echo hi')]));
    await post(server.url, responsesBody([userMessage('Run echo hi'), call, output]));

    expect(server.problems).toEqual([]);
    server.verify();
  });

  it('reports an output whose call is not in the input', async () => {
    server = await startMockResponsesServer({ responses: [sse(completed())] });

    await post(server.url, responsesBody([userMessage('hi'), output]));

    const violation = {
      code: 'OutputWithoutCall',
      itemIndex: 1,
      callId: 'call_mock_0002',
      message: 'input[1] (function_call_output) answers call_id call_mock_0002, but no tool call with that id comes before it',
    };
    expect(server.problems).toEqual([
      { kind: 'invariant-violation', requestIndex: 0, violation, message: `requests[0] POST /v1/responses: ${violation.message}` },
    ]);
    expect(() => server?.verify()).toThrow('answers call_id call_mock_0002');
    server.tolerate('invariant-violation', 'this test provokes it to check how it is reported');
  });

  it('reports a call the server emitted that has no output in the next request', async () => {
    server = await startMockResponsesServer({
      responses: [sse(customToolCall('apply_patch', '*** Begin Patch\n*** End Patch\n'), completed()), sse(completed())],
    });

    await post(server.url, responsesBody([userMessage('patch')]));
    await post(server.url, responsesBody([userMessage('patch')]));

    expect(server.problems.map((problem) => [problem.requestIndex, problem.violation?.code, problem.violation?.callId])).toEqual([
      [1, 'EmittedCallNotAnswered', 'call_mock_0002'],
    ]);
    server.tolerate('invariant-violation', 'this test provokes it to check how it is reported');
  });

  it('reports a replayed call that lost its output', async () => {
    server = await startMockResponsesServer({
      responses: [sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()), sse(completed())],
    });

    await post(server.url, responsesBody([userMessage('Run echo hi')]));
    await post(server.url, responsesBody([userMessage('Run echo hi'), call]));

    expect(server.problems.map((problem) => problem.violation?.code)).toEqual(['CallWithoutOutput', 'EmittedCallNotAnswered']);
    server.tolerate('invariant-violation', 'this test provokes it to check how it is reported');
  });

  it('reports tool call and output items with an empty call_id', async () => {
    server = await startMockResponsesServer({ responses: [sse(completed())] });

    await post(
      server.url,
      responsesBody([
        userMessage('hi'),
        { ...call, call_id: '' },
        { type: 'custom_tool_call_output', output: 'done' },
      ]),
    );

    expect(server.problems.map((problem) => [problem.violation?.code, problem.violation?.itemIndex])).toEqual([
      ['EmptyCallId', 1],
      ['EmptyCallId', 2],
    ]);
    server.tolerate('invariant-violation', 'this test provokes it to check how it is reported');
  });

  it('chains requests per thread, so another thread in between is not taken as the next request', async () => {
    server = await startMockResponsesServer({
      responses: [
        sse(functionCall('spawn_agent', { task_name: 'child' }), completed()),
        sse(assistantMessage('child done'), completed()),
        sse(assistantMessage('parent done'), completed()),
      ],
    });
    const parent = { 'thread-id': 'parent' };
    const spawn = { type: 'function_call', name: 'spawn_agent', arguments: '{"task_name":"child"}', call_id: 'call_mock_0002' };

    await post(server.url, responsesBody([userMessage('delegate')]), { headers: parent });
    await post(server.url, responsesBody([userMessage('child task')]), { headers: { 'thread-id': 'child' } });
    await post(server.url, responsesBody([userMessage('delegate'), spawn, { ...output, output: 'spawned' }]), { headers: parent });

    expect(server.problems).toEqual([]);
  });
});
