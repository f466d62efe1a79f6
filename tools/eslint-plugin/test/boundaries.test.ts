// Builds a small workspace in a temporary directory, with files that break each boundary rule and
// files that keep them, and lints it with the plugin exactly as the root config enables it.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import skein from '../src/index.js';

const manifests: Record<string, object> = {
  'packages/core': { name: '@skein/core', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } },
  'packages/protocol': {
    name: '@skein/protocol',
    exports: { '.': './dist/index.js', './wire': './dist/wire.js', './schemas/*': './dist/schemas/*.js' },
  },
  'packages/config': { name: '@skein/config', exports: { types: './dist/index.d.ts', import: './dist/index.js' } },
  'packages/cli': { name: '@skein/cli', exports: { '.': './dist/index.js' } },
  'packages/app-server': { name: '@skein/app-server', exports: { '.': './dist/index.js' } },
  'packages/extension-api': { name: '@skein/extension-api', exports: { '.': './dist/index.js' } },
  'ext/demo': { name: '@skein/ext-demo', exports: { '.': './dist/index.js' } },
  'packages/json-rpc': { name: '@skein/json-rpc', exports: { '.': './dist/index.js', './framing': './dist/framing.js' } },
  'packages/exec-server': { name: '@skein/exec-server', exports: { '.': './dist/index.js' } },
  'tools/bench': { name: '@skein/bench', private: true },
};

let root: string;
let eslint: ESLint;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-boundaries-'));
  writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n  - ext/*\n  - tools/*\n');
  for (const [dir, manifest] of Object.entries(manifests)) {
    mkdirSync(path.join(root, dir, 'src'), { recursive: true });
    writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify(manifest));
  }
  // The transport rule reads the names json-rpc's barrels export.
  writeFileSync(
    path.join(root, 'packages/json-rpc/src/index.ts'),
    "export { listenWebSocket, serveStdio } from './listener.js';\nexport type { JsonRpcService, MessageChannel as Channel } from './service.js';\n",
  );
  writeFileSync(path.join(root, 'packages/json-rpc/src/framing.ts'), "export { LineSplitter } from './line-splitter.js';\n");
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, skein.configs.boundaries],
  });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes `source` at `file` (relative to the fixture root) and returns `ruleId@line` of each message. */
async function lint(file: string, source: string): Promise<string[]> {
  const absolute = path.join(root, file);
  writeFileSync(absolute, source);
  const [result] = await eslint.lintFiles([absolute]);
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal:' + message.message}@${message.line}`);
}

describe('skein/ext-imports-only-extension-api', () => {
  it('fires on every other @skein package an extension names, in any import form', async () => {
    const messages = await lint(
      'ext/demo/src/leak.ts',
      [
        "import { ThreadId } from '@skein/protocol';",
        "export { loadConfig } from '@skein/config';",
        "export * from '@skein/protocol/wire';",
        "const lazy = await import('@skein/config');",
        "type T = import('@skein/protocol').ThreadId;",
        'export { ThreadId, lazy, type T };',
      ].join('\n'),
    );
    expect(messages).toEqual([
      'skein/ext-imports-only-extension-api@1',
      'skein/ext-imports-only-extension-api@2',
      'skein/ext-imports-only-extension-api@3',
      'skein/ext-imports-only-extension-api@4',
      'skein/ext-imports-only-extension-api@5',
    ]);
  });

  it('lets an extension import @skein/extension-api and third-party packages', async () => {
    const messages = await lint(
      'ext/demo/src/ok.ts',
      "import * as z from 'zod';\nimport { defineExtension } from '@skein/extension-api';\nexport { z, defineExtension };\n",
    );
    expect(messages).toEqual([]);
  });
});

describe('skein/core-importers', () => {
  it('fires when a library package or an extension imports @skein/core', async () => {
    expect(await lint('packages/config/src/engine.ts', "import { Session } from '@skein/core';\nexport { Session };\n")).toEqual([
      'skein/core-importers@1',
    ]);
    expect(await lint('ext/demo/src/engine.ts', "const core = require('@skein/core');\nexport { core };\n")).toEqual([
      'skein/ext-imports-only-extension-api@1',
      'skein/core-importers@1',
    ]);
  });

  it('lets app-server, cli and tools import @skein/core', async () => {
    const source = "import { Session } from '@skein/core';\nexport { Session };\n";
    expect(await lint('packages/app-server/src/host.ts', source)).toEqual([]);
    expect(await lint('packages/cli/src/host.ts', source)).toEqual([]);
    expect(await lint('tools/bench/src/host.ts', source)).toEqual([]);
  });
});

describe('skein/no-deep-imports', () => {
  it('fires on subpaths a package does not export', async () => {
    const messages = await lint(
      'packages/cli/src/deep.ts',
      [
        "import { a } from '@skein/protocol/src/a.js';",
        "import { b } from '@skein/protocol/dist/index.js';",
        "import { c } from '@skein/config/loader';",
        "import { d } from '@skein/nonexistent/x';",
        'export { a, b, c, d };',
      ].join('\n'),
    );
    expect(messages).toEqual([
      'skein/no-deep-imports@1',
      'skein/no-deep-imports@2',
      'skein/no-deep-imports@3',
      'skein/no-deep-imports@4',
    ]);
  });

  it('accepts exported subpaths, including patterns', async () => {
    const messages = await lint(
      'packages/cli/src/entries.ts',
      "import { a } from '@skein/protocol';\nimport { b } from '@skein/protocol/wire';\nimport { c } from '@skein/protocol/schemas/turn';\nexport { a, b, c };\n",
    );
    expect(messages).toEqual([]);
  });
});

describe('skein/no-relative-cross-package', () => {
  it('fires when a relative specifier leaves the package', async () => {
    const messages = await lint(
      'packages/config/src/relative.ts',
      "import { a } from '../../protocol/src/a.js';\nexport { b } from '../../../tools/bench/src/b.js';\nexport { a };\n",
    );
    expect(messages).toEqual(['skein/no-relative-cross-package@1', 'skein/no-relative-cross-package@2']);
  });

  it('accepts relative imports within the package, tests included', async () => {
    mkdirSync(path.join(root, 'packages/config/test'), { recursive: true });
    const messages = await lint(
      'packages/config/test/local.test.ts',
      "import { a } from '../src/a.js';\nimport pkg from '../package.json';\nexport { a, pkg };\n",
    );
    expect(messages).toEqual([]);
  });
});

describe('skein/transport-from-json-rpc', () => {
  it('fires when a transport name comes through another @skein package, imported or re-exported', async () => {
    const messages = await lint(
      'packages/app-server/src/transport.ts',
      [
        "import { listenWebSocket, FileSystemError } from '@skein/exec-server';",
        "import type { JsonRpcService } from '@skein/exec-server';",
        "export { serveStdio as serve } from '@skein/exec-server';",
        "import { LineSplitter } from '@skein/protocol';",
        'export { listenWebSocket, FileSystemError, LineSplitter, type JsonRpcService };',
      ].join('\n'),
    );
    expect(messages).toEqual(['skein/transport-from-json-rpc@1', 'skein/transport-from-json-rpc@2', 'skein/transport-from-json-rpc@3', 'skein/transport-from-json-rpc@4']);
  });

  it('fires when a package other than json-rpc opens a WebSocket listener with ws', async () => {
    const messages = await lint(
      'packages/exec-server/src/listener.ts',
      "import { WebSocketServer, WebSocket } from 'ws';\nimport { Server as WsServer } from 'ws';\nimport raw from 'ws/lib/websocket-server.js';\nexport { WebSocketServer, WebSocket, WsServer, raw };\n",
    );
    expect(messages).toEqual(['skein/transport-from-json-rpc@1', 'skein/transport-from-json-rpc@2', 'skein/transport-from-json-rpc@3']);
  });

  it('lets anyone import the transport from @skein/json-rpc, use a ws client, and json-rpc use ws freely', async () => {
    const consumer = [
      "import { listenWebSocket, serveStdio, type JsonRpcService } from '@skein/json-rpc';",
      "import { LineSplitter } from '@skein/json-rpc/framing';",
      "import { FileSystemError } from '@skein/exec-server';",
      "import WebSocket from 'ws';",
      'export { listenWebSocket, serveStdio, LineSplitter, FileSystemError, WebSocket, type JsonRpcService };',
    ].join('\n');
    expect(await lint('packages/app-server/src/ok-transport.ts', consumer)).toEqual([]);
    expect(await lint('packages/json-rpc/src/listener.ts', "import { WebSocketServer } from 'ws';\nexport { WebSocketServer };\n")).toEqual([]);
  });
});
