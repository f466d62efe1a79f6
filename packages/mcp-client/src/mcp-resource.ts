// Resources and their contents as this package hands them out: our own small interfaces, so a
// consumer's types never name the SDK. Every field the server sent and the SDK kept is carried over.

/** Open-ended metadata (`_meta`) as MCP defines it: keys are the server's, values any JSON. */
export type McpMeta = Readonly<Record<string, unknown>>;

/** Hints a server may attach to a resource. */
export interface McpAnnotations {
  readonly audience?: readonly ('user' | 'assistant')[] | undefined;
  readonly priority?: number | undefined;
  readonly lastModified?: string | undefined;
}

/** An icon a server may offer for a resource. */
export interface McpIcon {
  readonly src: string;
  readonly mimeType?: string | undefined;
  readonly sizes?: readonly string[] | undefined;
  readonly theme?: 'light' | 'dark' | undefined;
}

/** One entry of `resources/list`. `mimeType` is how a resource says its kind (e.g. `mcp/skill`). */
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly mimeType?: string | undefined;
  /** Size of the raw contents in bytes, when the server knows it. */
  readonly size?: number | undefined;
  readonly annotations?: McpAnnotations | undefined;
  readonly icons?: readonly McpIcon[] | undefined;
  readonly _meta?: McpMeta | undefined;
}

/** One page of `resources/list`; `nextCursor` is absent on the last page. */
export interface McpResourcePage {
  readonly resources: readonly McpResource[];
  readonly nextCursor?: string | undefined;
}

/** Text contents of a resource. */
export interface McpTextContents {
  readonly uri: string;
  readonly mimeType?: string | undefined;
  readonly text: string;
  readonly _meta?: McpMeta | undefined;
}

/** Binary contents of a resource, base64-encoded as on the wire (`Buffer.from(blob, 'base64')`). */
export interface McpBlobContents {
  readonly uri: string;
  readonly mimeType?: string | undefined;
  readonly blob: string;
  readonly _meta?: McpMeta | undefined;
}

/** One item of a `resources/read` answer. */
export type McpResourceContents = McpTextContents | McpBlobContents;

/** Whether read contents are text (the other kind is a base64 blob). */
export function isTextContents(contents: McpResourceContents): contents is McpTextContents {
  return 'text' in contents;
}
