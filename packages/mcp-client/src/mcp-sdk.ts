// The MCP SDK's runtime parts, imported when a client first connects: the SDK and the ajv it loads
// are ~450 KB that a host starting with no MCP server in use should not compile (issue #18).
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
