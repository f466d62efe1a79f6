// One request as the mock server received it, with the helpers tests use to ask what the model saw.
import * as z from 'zod';
import { ResponsesRequestBody, ResponsesTool } from './request-body.js';
import type { ResponsesInputItem } from './request-body.js';
import { TOOL_OUTPUT_TYPES } from './tool-call-invariants.js';

/** What the server records about a request before its body is interpreted. */
export interface CapturedRequestInit {
  /** Position among all requests this server received, from 0. */
  readonly index: number;
  readonly method: string;
  /** Path without the query string, e.g. `/v1/responses`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text; empty when it was refused for its size. */
  readonly rawBody: string;
  /** Bytes received, counted even when the body was refused. */
  readonly bodyBytes: number;
}

const TextPart = z.looseObject({ type: z.string(), text: z.string() });
const MessageContent = z.union([z.string(), z.array(z.unknown())]);
const NamespaceTool = z.looseObject({ type: z.literal('namespace'), name: z.string(), tools: z.array(z.unknown()) });
const AdditionalTools = z.looseObject({ type: z.literal('additional_tools'), tools: z.array(z.unknown()) });
const TEXT_PART_TYPES: readonly string[] = ['input_text', 'output_text'];

/** A request the mock server received, with its body parsed where it is a Responses request. */
export class CapturedRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly rawBody: string;
  readonly bodyBytes: number;
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  readonly json: unknown;
  /** The body when it is a valid Responses request, else `undefined` (see `bodyError`). */
  readonly body: ResponsesRequestBody | undefined;
  /** Why `body` is `undefined`. */
  readonly bodyError: string | undefined;

  /** Parses the body once; the helpers below read the parsed form. */
  constructor(init: CapturedRequestInit) {
    this.index = init.index;
    this.method = init.method;
    this.path = init.path;
    this.query = init.query;
    this.headers = init.headers;
    this.rawBody = init.rawBody;
    this.bodyBytes = init.bodyBytes;
    const parsed = parseJson(init.rawBody);
    this.json = parsed.ok ? parsed.value : undefined;
    const body = parsed.ok ? ResponsesRequestBody.safeParse(parsed.value) : undefined;
    this.body = body?.success === true ? body.data : undefined;
    this.bodyError = parsed.ok ? (body?.success === false ? z.prettifyError(body.error) : undefined) : parsed.error;
  }

  /** A header's value by case-insensitive name. */
  header(name: string): string | undefined {
    const key = name.toLowerCase();
    return Object.hasOwn(this.headers, key) ? this.headers[key] : undefined;
  }

  /** The `input` items, optionally only those of one `type` and/or `role`. */
  inputItems(filter: { readonly type?: string; readonly role?: string } = {}): ResponsesInputItem[] {
    return (this.body?.input ?? []).filter(
      (item) => (filter.type === undefined || item.type === filter.type) && (filter.role === undefined || item.role === filter.role),
    );
  }

  /**
   * The text of every `message` item with this role, in order: one string per message, its
   * `input_text` / `output_text` parts concatenated (a string `content` is taken as is).
   */
  messageTexts(role: string): string[] {
    return this.inputItems({ type: 'message', role }).map((item) => {
      const content = MessageContent.safeParse(item.content);
      return content.success ? textOf(content.data) : '';
    });
  }

  /** The `function_call_output` or `custom_tool_call_output` item answering `callId`. */
  toolOutput(callId: string): ResponsesInputItem | undefined {
    return this.body?.input.find((item) => TOOL_OUTPUT_TYPES.includes(item.type) && item.call_id === callId);
  }

  /** The output answering `callId` as text: a string output as is, an array of text parts concatenated. */
  toolOutputText(callId: string): string | undefined {
    const output = MessageContent.safeParse(this.toolOutput(callId)?.output);
    return output.success ? textOf(output.data) : undefined;
  }

  /**
   * The names of the tools offered, from top-level `tools` and from `additional_tools` input items,
   * in order. Tools inside a `namespace` appear under their own name, or as `namespace.name` with
   * `qualified`; a nameless hosted tool (`web_search`, `tool_search`) appears as its `type`.
   */
  toolNames(options: { readonly qualified?: boolean } = {}): string[] {
    const offered: unknown[] = [...(this.body?.tools ?? [])];
    for (const item of this.body?.input ?? []) {
      const additional = AdditionalTools.safeParse(item);
      if (additional.success) offered.push(...additional.data.tools);
    }
    return offered.flatMap((tool) => {
      const namespace = NamespaceTool.safeParse(tool);
      if (namespace.success) {
        return namespace.data.tools.flatMap((inner) => {
          const name = toolName(inner);
          if (name === undefined) return [];
          return [options.qualified === true ? `${namespace.data.name}.${name}` : name];
        });
      }
      const name = toolName(tool);
      return name === undefined ? [] : [name];
    });
  }
}

function toolName(tool: unknown): string | undefined {
  const parsed = ResponsesTool.safeParse(tool);
  return parsed.success ? (parsed.data.name ?? parsed.data.type) : undefined;
}

function textOf(content: string | readonly unknown[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      const text = TextPart.safeParse(part);
      return text.success && TEXT_PART_TYPES.includes(text.data.type) ? text.data.text : '';
    })
    .join('');
}

type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `the body is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
