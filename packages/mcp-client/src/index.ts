// @skein/mcp-client — the tools and resources of MCP servers configured by [mcp_servers.*]. Re-exports only.

export { McpClientError } from './mcp-client-error.js';
export type { McpClientErrorCode } from './mcp-client-error.js';
export { McpServerConfig } from './mcp-server-config.js';
export type { McpHostEnv } from './mcp-server-config.js';
export {
  DEFAULT_MAX_PAGES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  McpClient,
} from './mcp-client.js';
export type { McpCallOptions, McpClientOptions, McpPagingOptions, McpToolCallOptions } from './mcp-client.js';
export type {
  McpContentBlock,
  McpElicitation,
  McpElicitationResult,
  McpJsonObject,
  McpProgress,
  McpResourceTemplate,
  McpResourceTemplatePage,
  McpServerDescription,
  McpTool,
  McpToolPage,
  McpToolResult,
} from './mcp-tool.js';
export { McpServers } from './mcp-servers.js';
export type { McpServersOptions } from './mcp-servers.js';
export { isTextContents } from './mcp-resource.js';
export type {
  McpAnnotations,
  McpBlobContents,
  McpIcon,
  McpMeta,
  McpResource,
  McpResourceContents,
  McpResourcePage,
  McpTextContents,
} from './mcp-resource.js';
export { MCP_SKILL_MIME_TYPE, McpSkillMeta, isSkillResource, skillResourceMeta } from './skill-resources.js';
export { resourceSource } from './resource-source.js';
export type { McpResourceSource } from './resource-source.js';
