// How an app-server method is defined: a zod schema for its params and a handler that gets the
// parsed params and the request's context. Groups of methods live in `methods/<group>.ts`.
import type { InitializeParams, RequestId } from '@skein/protocol';
import type { z } from 'zod';
import type { AppServer } from './app-server.js';

/** The client side of one connection, as a handler sees it. */
export interface ClientConnection {
  /** Unique per server, from 1. */
  readonly id: number;
  /** What the client sent in `initialize` (handlers only run after it). */
  readonly initializeParams: InitializeParams;
  /** Whether the client opted in to experimental methods and fields (`capabilities.experimentalApi`). */
  readonly experimentalApi: boolean;
  /** Aborted when the client disconnects. */
  readonly closed: AbortSignal;
  /** Sends a notification, unless the client opted out of `method` or has gone. */
  notify(method: string, params: unknown): void;
  /**
   * Sends a server→client request (ids unique in the server) and resolves to the client's result;
   * rejects with `ServerRequestError` on an error answer or when the client disconnects first.
   */
  request(method: string, params: unknown, options?: { readonly onSent?: (requestId: number) => void; readonly signal?: AbortSignal }): Promise<unknown>;
  /** Runs `listener` once when the client disconnects; returns the unregistration. */
  onClose(listener: () => void): () => void;
}

/** What a handler gets besides its params. */
export interface MethodContext {
  /** The method being served. */
  readonly method: string;
  readonly requestId: RequestId;
  /** The client that sent the request. */
  readonly connection: ClientConnection;
  /** The server: config, filesystem, thread subscriptions, broadcast. */
  readonly server: AppServer;
}

/** One method: its params schema and its handler. */
export interface AppServerMethod<P extends z.ZodType = z.ZodType> {
  /** Parses the request's params; a failure answers -32600 `Invalid request: …` naming the issue path. */
  readonly params: P;
  /** Only clients with `experimentalApi` may call it (else -32600 `<method> requires experimentalApi capability`). */
  readonly experimental?: boolean;
  /**
   * Top-level params fields only clients with `experimentalApi` may set (non-null); others get
   * -32600 `<method>.<field> requires experimentalApi capability`, as Codex answers.
   */
  readonly experimentalFields?: readonly string[];
  /**
   * What a malformed `threadId` param is called in its -32600 (`invalid <noun> id: …`): `thread`
   * unless set; Codex says `session` for the methods that open a stored thread.
   */
  readonly threadIdNoun?: 'thread' | 'session';
  /**
   * The handler checks `threadId` itself (default false): Codex checks some methods' other params
   * first and answers a malformed id there with another code.
   */
  readonly ownThreadIdCheck?: boolean;
  /** Answers the request; the resolved value is the result. Throw `AppServerRequestError` for a specific error. */
  handle(params: z.output<P>, context: MethodContext): unknown;
}

/** Methods by name. */
export type MethodTable = ReadonlyMap<string, AppServerMethod>;

/** Declares a method with its params type inferred from the schema. */
export function defineMethod<P extends z.ZodType>(method: AppServerMethod<P>): AppServerMethod {
  return method;
}
