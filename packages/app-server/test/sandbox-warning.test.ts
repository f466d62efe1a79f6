// A server whose default sandbox cannot run on its machine says so once to each client, as a
// `configWarning` naming the remedy, rather than only as each sandboxed command fails.
import path from 'node:path';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_TOML, makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

let home: TestHome | undefined;
let client: AppServerTestClient | undefined;
afterEach(async () => {
  await client?.close();
  home?.cleanup();
  client = undefined;
  home = undefined;
});

async function serverWithoutBwrap(configToml: string): Promise<AppServerTestClient> {
  home = makeHome(configToml);
  home.env.PATH = path.join(home.home, 'no-bwrap');
  client = spawnStdioClient(home);
  await client.initialize();
  return client;
}

const summaries = (connection: AppServerTestClient) => connection.notificationsOf('configWarning').map((params) => (params as { summary: string }).summary);

describe('the sandbox startup warning', () => {
  it('warns when the default policy confines commands and bubblewrap is missing, naming the remedy', async () => {
    const connection = await serverWithoutBwrap(`sandbox_mode = "workspace-write"\n${CONFIG_TOML}`);
    await connection.waitFor('configWarning', () => true);
    await connection.request('config/read', {});
    expect(summaries(connection)).toEqual([expect.stringMatching(/^The sandbox cannot confine commands on this machine: no bwrap executable was found on PATH.*apt-get install bubblewrap/)]);
  });

  it('says nothing when the default policy runs commands unconfined', async () => {
    const connection = await serverWithoutBwrap(`sandbox_mode = "danger-full-access"\n${CONFIG_TOML}`);
    // The probe is not even run; a later answer is well past where the warning would have gone.
    await connection.request('config/read', {});
    expect(summaries(connection)).toEqual([]);
  });
});
