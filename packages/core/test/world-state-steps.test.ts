// The extensions' world state is snapshotted before every sampling request, not once per turn
// (seed 001's per-step builder): a tool that changes what a section reports is seen by the model in
// the same turn, and the rollout records the new snapshot.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineExtension, defineFunctionTool, ExtensionRegistryBuilder } from '@skein/extension-api';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { startTestThread } from '../src/testing/index.js';
import { useMockWorkspace } from './support/mock-workspace.js';
import { say } from './support/tool-thread.js';

const scenario = useMockWorkspace();


describe('world state per sampling step', () => {
  it('tells the model in the same turn what a tool changed in a section, and records the snapshot', async () => {
    let deploys = 0;
    const deploy = defineFunctionTool({
      spec: { type: 'function', name: 'deploy', description: 'Deploys.', strict: false, parameters: { type: 'object', properties: {}, additionalProperties: false } },
      arguments: z.object({}),
      handle: () => {
        deploys += 1;
        return Promise.resolve({ output: 'deployed', success: true });
      },
    });
    const extensions = new ExtensionRegistryBuilder()
      .add(
        defineExtension({
          id: 'deployer',
          tools: { tools: () => Promise.resolve([deploy]) },
          worldState: [{ sectionId: 'deploys', snapshot: () => Promise.resolve(deploys), renderChange: (_previous, current) => `<deploys>${JSON.stringify(current)}</deploys>` }],
        }),
      )
      .build();
    scenario.server.expect([sse(functionCall('deploy', {}, { callId: 'call_deploy' }), completed()), sse(assistantMessage('Deployed.'), completed())]);
    const { thread } = await startTestThread(scenario.workspace, { modelUrl: scenario.server.url, hostEnv: process.env, overrides: ['approval_policy="never"'], extensions });
    await thread.runTurn(say('deploy'));
    await thread.close();

    const developerTexts = (index: number) => scenario.server.requests[index]!.messageTexts('developer');
    expect(developerTexts(0)).toContain('<deploys>0</deploys>');
    // The second request of the same turn: the change, after the tool's output.
    const input = scenario.server.requests[1]!.body!.input;
    const output = input.findIndex((item) => item.type === 'function_call_output');
    const change = input.findIndex((item) => item.type === 'message' && JSON.stringify(item).includes('<deploys>1</deploys>'));
    expect(output).toBeGreaterThan(-1);
    expect(change).toBeGreaterThan(output);

    const sessions = path.join(scenario.workspace.home, 'sessions');
    const file = readdirSync(sessions, { recursive: true }).map(String).find((name) => name.endsWith('.jsonl'))!;
    const snapshots = readFileSync(path.join(sessions, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: { state?: Record<string, unknown> } }).filter((line) => line.type === 'world_state').map((line) => line.payload.state?.['deploys']);
    expect(snapshots).toEqual([0, 1]);
  });
});
