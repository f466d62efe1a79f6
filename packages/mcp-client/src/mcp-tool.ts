// The tools of an MCP server and what a call returns, as plain data (the SDK's shapes, copied out so
// consumers need not depend on the SDK's types).

/** A JSON object as the server sent it. */
export type McpJsonObject = Readonly<Record<string, unknown>>;

/** One tool a server lists (`tools/list`). */
export interface McpTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** The JSON Schema of the tool's arguments (always an object schema). */
  readonly inputSchema: McpJsonObject;
  readonly outputSchema?: McpJsonObject | undefined;
  /** Hints such as `readOnlyHint`, `destructiveHint`, `openWorldHint`. */
  readonly annotations?: McpJsonObject | undefined;
  readonly _meta?: McpJsonObject | undefined;
}

/** One page of `tools/list`. */
export interface McpToolPage {
  readonly tools: readonly McpTool[];
  readonly nextCursor?: string;
}

/** One block of a tool's result: text, an image, audio, a resource link or an embedded resource. */
export type McpContentBlock = McpJsonObject & { readonly type: string };

/** What `tools/call` returned. `isError` marks a failure the tool itself reports (the model reads it). */
export interface McpToolResult {
  readonly content: readonly McpContentBlock[];
  readonly structuredContent?: McpJsonObject | undefined;
  readonly isError?: boolean | undefined;
  readonly _meta?: McpJsonObject | undefined;
}

/** A `notifications/progress` of a running call. */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/** One resource template a server lists (`resources/templates/list`). */
export interface McpResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly mimeType?: string | undefined;
  readonly annotations?: McpJsonObject | undefined;
  readonly _meta?: McpJsonObject | undefined;
}

/** One page of `resources/templates/list`. */
export interface McpResourceTemplatePage {
  readonly resourceTemplates: readonly McpResourceTemplate[];
  readonly nextCursor?: string;
}

/** Who the server says it is (`initialize`'s `serverInfo`) and what it can do. */
export interface McpServerDescription {
  readonly serverInfo: McpJsonObject | undefined;
  readonly capabilities: McpJsonObject | undefined;
  readonly instructions: string | undefined;
}

/** A server's `elicitation/create`: a form for the user to fill, or a URL for them to visit. */
export type McpElicitation =
  | { readonly mode: 'form'; readonly message: string; readonly requestedSchema: McpJsonObject; readonly _meta?: McpJsonObject | undefined }
  | { readonly mode: 'url'; readonly message: string; readonly url: string; readonly elicitationId: string; readonly _meta?: McpJsonObject | undefined };

/** The user's answer to an elicitation. */
export interface McpElicitationResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  /** What the user filled in (form mode, accept only). */
  readonly content?: Readonly<Record<string, string | number | boolean | readonly string[]>> | undefined;
}
