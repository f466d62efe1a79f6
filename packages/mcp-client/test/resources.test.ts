// Listing and reading resources of a real SDK server, over stdio and over streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClientError, McpClient, isSkillResource, isTextContents, skillResourceMeta } from '../src/index.js';
import type { McpResource, McpResourcePage, McpServerConfig } from '../src/index.js';
import { BLOB_BYTES, SECOND_PAGE_CURSOR } from './fixtures/resource-server.mjs';
import { startHttpFixture } from './http-fixture.js';
import type { HttpFixture } from './http-fixture.js';
import { hostEnv, stdioServer } from './servers.js';

const FIRST_PAGE: McpResource[] = [
  {
    uri: 'skill://demo/alpha',
    name: 'demo/alpha',
    description: 'Alpha skill from the demo plugin.',
    mimeType: 'mcp/skill',
    _meta: { skill_name: 'alpha', plugin_name: 'demo' },
  },
  { uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain' },
];
const SECOND_PAGE: McpResource[] = [
  {
    uri: 'skill://user/beta',
    name: 'beta',
    title: 'Beta',
    description: 'A user skill.',
    mimeType: 'mcp/skill',
    size: 42,
    annotations: { audience: ['assistant'], priority: 0.5 },
    _meta: { skill_name: 'beta', source: 'user', revision: 7 },
  },
  { uri: 'blob://logo.png', name: 'logo', mimeType: 'image/png' },
];

let http: HttpFixture;
beforeAll(async () => {
  http = await startHttpFixture();
});
afterAll(async () => {
  await http.close();
});

const transports: [string, () => McpServerConfig][] = [
  ['stdio', () => stdioServer()],
  ['streamable HTTP', () => ({ url: http.url })],
];

describe.each(transports)('over %s', (_transport, server) => {
  let client: McpClient;
  beforeAll(async () => {
    client = await McpClient.connect('fixture', server(), { env: hostEnv() });
  });
  afterAll(async () => {
    await client.close();
  });

  it('lists one page at a time, keeping every field and _meta', async () => {
    const first = await client.listResources();
    expect(first).toEqual({ resources: FIRST_PAGE, nextCursor: SECOND_PAGE_CURSOR });
    const second = await client.listResources({ cursor: SECOND_PAGE_CURSOR });
    expect(second).toEqual({ resources: SECOND_PAGE });
  });

  it('pages through every page, and the skill filter keeps only mcp/skill resources', async () => {
    const pages: McpResourcePage[] = [];
    for await (const page of client.resourcePages()) pages.push(page);
    expect(pages).toEqual([{ resources: FIRST_PAGE, nextCursor: SECOND_PAGE_CURSOR }, { resources: SECOND_PAGE }]);
    const skills = pages.flatMap((page) => page.resources).filter(isSkillResource);
    expect(skills.map((resource) => [resource.uri, skillResourceMeta(resource)])).toEqual([
      ['skill://demo/alpha', { skill_name: 'alpha', plugin_name: 'demo' }],
      ['skill://user/beta', { skill_name: 'beta', source: 'user', revision: 7 }],
    ]);
  });

  it('stops after maxPages, leaving the last page its nextCursor', async () => {
    const pages: McpResourcePage[] = [];
    for await (const page of client.resourcePages({ maxPages: 1 })) pages.push(page);
    expect(pages).toEqual([{ resources: FIRST_PAGE, nextCursor: SECOND_PAGE_CURSOR }]);
  });

  it('reads text contents', async () => {
    const contents = await client.readResource('skill://demo/alpha/SKILL.md');
    expect(contents).toEqual([
      { uri: 'skill://demo/alpha/SKILL.md', mimeType: 'text/markdown', text: '---\nname: alpha\ndescription: Alpha skill from the demo plugin.\n---\nSay alpha.\n' },
    ]);
    expect(contents.every(isTextContents)).toBe(true);
  });

  it('reads blob contents as base64 with their _meta', async () => {
    const [contents, ...rest] = await client.readResource('blob://logo.png');
    expect(rest).toEqual([]);
    expect(contents).toEqual({ uri: 'blob://logo.png', mimeType: 'image/png', blob: Buffer.from(BLOB_BYTES).toString('base64'), _meta: { etag: 'v1' } });
    expect(contents !== undefined && !isTextContents(contents) && [...Buffer.from(contents.blob, 'base64')]).toEqual(BLOB_BYTES);
  });

  it('answers a server error as ServerError with the JSON-RPC code, and stays usable', async () => {
    const error: unknown = await client.readResource('file:///missing').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).toMatchObject({ code: 'ServerError', server: 'fixture', rpcCode: -32002 });
    expect((error as McpClientError).message).toBe("MCP server 'fixture': resources/read file:///missing failed (JSON-RPC error -32002): no resource file:///missing");
    expect(client.isOpen).toBe(true);
    expect((await client.listResources()).resources).toEqual(FIRST_PAGE);
  });
});
