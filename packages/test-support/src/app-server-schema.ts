// Validation of app-server messages against the committed copy of Codex 0.171.0's generated JSON
// Schema (`app-server-protocol-structure/`, doc strings removed), compiled once per process.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

/** The committed schema folder (beside `src/` and `dist/`, so both the sources and the build find it). */
export const APP_SERVER_SCHEMA_DIR = fileURLToPath(new URL('../app-server-protocol-structure/', import.meta.url));

const BUNDLE_ID = 'codex';

/** Why a message failed validation. */
export class AppServerSchemaError extends Error {
  override readonly name = 'AppServerSchemaError';
  constructor(
    readonly code: 'InvalidMessage' | 'UnknownDefinition' | 'UnknownMethod',
    message: string,
  ) {
    super(message);
  }
}

/** A union of messages as Codex's generator writes it: `oneOf` variants, each naming its `method`. */
interface MethodUnion {
  readonly oneOf?: readonly { readonly properties?: { readonly method?: { readonly enum?: readonly string[] } } }[];
  readonly [keyword: string]: unknown;
}

interface ClientRequestVariant {
  readonly properties: { readonly method: { readonly enum: readonly string[] }; readonly params?: { readonly $ref?: string } };
}

/**
 * Codex 0.171.0's app-server schema, compiled on demand. Use the shared {@link appServerSchema}
 * rather than building another: compiling the large unions takes seconds.
 */
/** Methods whose result breaks the `…Params` → `…Response` naming: both config writes answer one shape, and `account/logout`. */
const SHARED_RESPONSES: ReadonlyMap<string, string> = new Map([
  ['config/value/write', 'v2/ConfigWriteResponse'],
  ['config/batchWrite', 'v2/ConfigWriteResponse'],
  // Takes no params, and its response is named for the action, not the method.
  ['account/logout', 'v2/LogoutAccountResponse'],
  // Takes no params either; Codex names its response for the refresh it does.
  ['config/mcpServer/reload', 'v2/McpServerRefreshResponse'],
  ['mcpServerStatus/list', 'v2/ListMcpServerStatusResponse'],
]);

export class AppServerSchema {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly variantIndexes = new Map<string, ReadonlyMap<string, number> | undefined>();
  private readonly bundle: { readonly definitions: Readonly<Record<string, unknown>> & { readonly v2: Readonly<Record<string, unknown>> } };
  private readonly paramsRefByMethod: ReadonlyMap<string, string | undefined>;

  constructor(dir: string = APP_SERVER_SCHEMA_DIR) {
    const read = (file: string): unknown => JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
    this.bundle = read('codex_app_server_protocol.schemas.json') as AppServerSchema['bundle'];
    // Codex's generator emits formats such as int64/uint that ajv does not know; the types still apply.
    this.ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    this.ajv.addSchema({ ...this.bundle, $id: BUNDLE_ID });
    const clientRequest = read('ClientRequest.json') as { readonly oneOf: readonly ClientRequestVariant[] };
    this.paramsRefByMethod = new Map(
      clientRequest.oneOf.map((variant) => [variant.properties.method.enum[0] ?? '', variant.properties.params?.$ref]),
    );
  }

  /** Every client request method Codex's protocol defines. */
  get clientRequestMethods(): readonly string[] {
    return [...this.paramsRefByMethod.keys()];
  }

  /** Whether `method` is a client request method of Codex's protocol. */
  isClientRequestMethod(method: string): boolean {
    return this.paramsRefByMethod.has(method);
  }

  /**
   * The definition of `method`'s result (`v2/FsReadFileResponse`, `InitializeResponse`), found by
   * Codex's naming (`…Params` → `…Response`; a method without params by its own name,
   * `configRequirements/read` → `ConfigRequirementsReadResponse`); undefined when the protocol has none.
   */
  responseDefinition(method: string): string | undefined {
    if (!this.paramsRefByMethod.has(method)) return undefined;
    const shared = SHARED_RESPONSES.get(method);
    if (shared !== undefined) return shared;
    const name = this.paramsRefByMethod.get(method)?.split('/').at(-1);
    let response: string;
    if (name === undefined) response = `${method.split('/').map((segment) => `${segment.charAt(0).toUpperCase()}${segment.slice(1)}`).join('')}Response`;
    else if (name.endsWith('Params')) response = `${name.slice(0, -'Params'.length)}Response`;
    else return undefined;
    if (Object.hasOwn(this.bundle.definitions.v2, response)) return `v2/${response}`;
    if (Object.hasOwn(this.bundle.definitions, response)) return response;
    return undefined;
  }

  /** The errors of `value` against a definition of the bundle (`ServerNotification`, `v2/Thread`, …); empty when valid. */
  errors(definition: string, value: unknown): string[] {
    const validate = this.variantValidator(definition, value) ?? this.validator(definition);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
  }

  /** Throws an `AppServerSchemaError` naming the definition and the first problems when `value` is not valid. */
  assertValid(definition: string, value: unknown): void {
    const errors = this.errors(definition, value);
    if (errors.length > 0) {
      throw new AppServerSchemaError('InvalidMessage', `not a valid ${definition}: ${summarize(errors)}\n${preview(value)}`);
    }
  }

  /**
   * Checks a message a server sent: a notification, a server→client request, an error, or the
   * response to `requestMethod` (pass the method of the request it answers). A `jsonrpc` member is
   * refused too: Codex's app-server never sends one.
   */
  assertServerMessage(message: unknown, requestMethod?: string): void {
    if (!isObject(message)) throw new AppServerSchemaError('InvalidMessage', `a server message must be a JSON object, got ${preview(message)}`);
    if ('jsonrpc' in message) throw new AppServerSchemaError('InvalidMessage', `the server sent a \`jsonrpc\` member, which Codex's app-server never does\n${preview(message)}`);
    if ('method' in message) {
      this.assertValid('id' in message ? 'ServerRequest' : 'ServerNotification', message);
      return;
    }
    if ('error' in message) {
      this.assertValid('JSONRPCError', message);
      return;
    }
    if ('result' in message) {
      this.assertValid('JSONRPCResponse', message);
      if (requestMethod === undefined) return;
      const definition = this.responseDefinition(requestMethod);
      if (definition === undefined) {
        if (this.isClientRequestMethod(requestMethod)) {
          throw new AppServerSchemaError('UnknownDefinition', `Codex's schema has no response definition for \`${requestMethod}\``);
        }
        return;
      }
      this.assertValid(definition, message.result);
      return;
    }
    throw new AppServerSchemaError('InvalidMessage', `not a JSON-RPC message (no method, result or error): ${preview(message)}`);
  }

  /** Checks a message a client sends: a request, a notification, or a response to a server request. */
  assertClientMessage(message: unknown): void {
    if (!isObject(message)) throw new AppServerSchemaError('InvalidMessage', `a client message must be a JSON object, got ${preview(message)}`);
    if ('method' in message) {
      this.assertValid('id' in message ? 'ClientRequest' : 'ClientNotification', message);
      return;
    }
    this.assertValid('error' in message ? 'JSONRPCError' : 'JSONRPCResponse', message);
  }

  /**
   * For a union whose every variant fixes one `method` (the notifications, the requests), the
   * validator of the variant `value` names: the only one it can match, so checking it alone is the
   * union's `oneOf` without trying the other 80-odd variants (and compiling only what it needs).
   * Undefined when the method is not the union's: the whole union then reports why.
   */
  private variantValidator(definition: string, value: unknown): ValidateFunction | undefined {
    if (!isObject(value) || typeof value.method !== 'string') return undefined;
    const index = this.variantsOf(definition)?.get(value.method);
    if (index === undefined) return undefined;
    const key = `${definition}/oneOf/${index}`;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      const { oneOf: _variants, $schema: _dialect, title: _title, ...own } = this.bundle.definitions[definition] as Record<string, unknown>;
      const variant = { $ref: `${BUNDLE_ID}#/definitions/${key}` };
      // The union's own keywords (the notifications' `emittedAtMs`) still apply beside the variant's.
      validate = Object.keys(own).length === 0 ? this.ajv.compile(variant) : this.ajv.compile({ allOf: [variant, own] });
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** Method → variant index, for the unions whose variants each fix one method and add nothing by reference. */
  private variantsOf(definition: string): ReadonlyMap<string, number> | undefined {
    if (this.variantIndexes.has(definition)) return this.variantIndexes.get(definition);
    const union = this.bundle.definitions[definition] as MethodUnion | undefined;
    const { oneOf, $schema: _dialect, title: _title, ...own } = union ?? {};
    const methods = oneOf?.map((variant) => variant.properties?.method?.enum);
    const byMethod =
      methods !== undefined && methods.every((names) => names?.length === 1) && !JSON.stringify(own).includes('$ref')
        ? new Map(methods.map((names, index) => [names![0]!, index]))
        : undefined;
    this.variantIndexes.set(definition, byMethod);
    return byMethod;
  }

  private validator(definition: string): ValidateFunction {
    let validate = this.validators.get(definition);
    if (validate === undefined) {
      validate = this.ajv.getSchema(`${BUNDLE_ID}#/definitions/${definition}`);
      if (validate === undefined) throw new AppServerSchemaError('UnknownDefinition', `no definition ${definition} in Codex's app-server schema`);
      this.validators.set(definition, validate);
    }
    return validate;
  }
}

let shared: AppServerSchema | undefined;

/** The process-wide compiled schema (built on first use). */
export function appServerSchema(): AppServerSchema {
  shared ??= new AppServerSchema();
  return shared;
}

/** {@link AppServerSchema.assertServerMessage} on the shared schema. */
export function assertServerMessage(message: unknown, requestMethod?: string): void {
  appServerSchema().assertServerMessage(message, requestMethod);
}

/** {@link AppServerSchema.assertClientMessage} on the shared schema. */
export function assertClientMessage(message: unknown): void {
  appServerSchema().assertClientMessage(message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_LISTED_ERRORS = 5;
const MAX_PREVIEW_CHARS = 600;

function summarize(errors: readonly string[]): string {
  const shown = errors.slice(0, MAX_LISTED_ERRORS).join('; ');
  return errors.length > MAX_LISTED_ERRORS ? `${shown}; … ${errors.length - MAX_LISTED_ERRORS} more` : shown;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_PREVIEW_CHARS ? `${text.slice(0, MAX_PREVIEW_CHARS)}…` : text;
}
