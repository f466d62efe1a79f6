// The README's "What is served" table against the server itself: every Codex client request is in
// exactly one column, `served` holds what the method table serves, and the rest answer -32601
// naming the method. A method added without its row (or a row without its method) fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CODEX_CLIENT_REQUEST_METHODS } from '@skein/protocol';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { methodTable } from '../src/index.js';
import { makeHome, startInProcess, type InProcessServer, type TestHome } from './support/app-server-harness.js';

const README = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The table's rows: group, served methods, methods answered -32601. */
function servedTable(): { readonly group: string; readonly served: string[]; readonly missing: string[] }[] {
  const section = README.split('\n## What is served\n')[1]?.split('\n## ')[0];
  if (section === undefined) throw new Error('README.md has no "What is served" section');
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, group = '', served = '', missing = ''] = line.split('|').map((cell) => cell.trim());
      return { group: names(group)[0] ?? '', served: names(served), missing: names(missing) };
    });
}

let home: TestHome | undefined;
let server: InProcessServer | undefined;
let client: AppServerTestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await server?.close();
  home?.cleanup();
  server = undefined;
  home = undefined;
});

describe("the README's table of served methods", () => {
  it('names every Codex client request once, in the column the method table puts it', () => {
    const rows = servedTable();
    const served = new Set([...methodTable().keys(), 'initialize']);
    const listed = rows.flatMap((row) => [...row.served, ...row.missing]);
    expect([...listed].sort()).toEqual([...CODEX_CLIENT_REQUEST_METHODS].sort());
    for (const row of rows) {
      for (const name of [...row.served, ...row.missing]) expect(name.split('/')[0], `${name} is in the ${row.group} row`).toBe(row.group);
      expect(row.served.filter((name) => !served.has(name)), `the ${row.group} row says these are served`).toEqual([]);
      expect(row.missing.filter((name) => served.has(name)), `the ${row.group} row says these are not served`).toEqual([]);
    }
  });

  it('answers each method of the -32601 column with -32601 naming it', async () => {
    home = makeHome();
    server = await startInProcess(home);
    client = await server.connect('stdio');
    await client.initialize();
    for (const name of servedTable().flatMap((row) => row.missing)) {
      expect(await client.requestReply(name, {})).toEqual({ error: { code: -32601, message: `method not found: \`${name}\` is not implemented by this server` } });
    }
  });
});
