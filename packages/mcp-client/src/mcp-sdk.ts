// The MCP SDK, loaded on the first connection. It brings ajv and its own schemas (about 480 KB of
// code); every process that loads this package (each app-server, each `skein exec`) would otherwise
// compile it at start-up, though most never reach an MCP server (issue #18).
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import type * as AjvModule from '@modelcontextprotocol/sdk/validation/ajv';

/** The parts of the SDK the client uses. */
export interface McpSdk {
  readonly Client: typeof ClientModule.Client;
  readonly StdioClientTransport: typeof StdioModule.StdioClientTransport;
  readonly StreamableHTTPClientTransport: typeof HttpModule.StreamableHTTPClientTransport;
  readonly StreamableHTTPError: typeof HttpModule.StreamableHTTPError;
  readonly McpError: typeof TypesModule.McpError;
  readonly ErrorCode: typeof TypesModule.ErrorCode;
  readonly ElicitRequestSchema: typeof TypesModule.ElicitRequestSchema;
  readonly AjvJsonSchemaValidator: typeof AjvModule.AjvJsonSchemaValidator;
}

let loading: Promise<McpSdk> | undefined;

/** The SDK, imported once per process. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]).then(([client, stdio, http, types, ajv]) => ({
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    ElicitRequestSchema: types.ElicitRequestSchema,
    AjvJsonSchemaValidator: ajv.AjvJsonSchemaValidator,
  }));
  return loading;
}
