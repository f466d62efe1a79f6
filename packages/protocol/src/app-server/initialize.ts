// The `initialize` handshake: the first request of every connection.
import * as z from 'zod';
import { ClientInfo } from './common.js';
import { lazySchema } from '../lazy-schema.js';

/** What the client can do; `experimentalApi` opts in to experimental methods and fields. */
export const InitializeCapabilities = lazySchema(() => z.object({
  experimentalApi: z.boolean().default(false),
  requestAttestation: z.boolean().default(false),
  optOutNotificationMethods: z.array(z.string()).nullish(),
  extensions: z.record(z.string(), z.unknown()).nullish(),
}));
export type InitializeCapabilities = z.infer<typeof InitializeCapabilities>;

export const InitializeParams = lazySchema(() => z.object({ clientInfo: ClientInfo, capabilities: InitializeCapabilities.nullish() }));
export type InitializeParams = z.infer<typeof InitializeParams>;

export const InitializeResponse = lazySchema(() => z.object({
  userAgent: z.string(),
  /** Absolute path of the home directory the server reads its config from. */
  codexHome: z.string(),
  platformFamily: z.string(),
  platformOs: z.string(),
}));
export type InitializeResponse = z.infer<typeof InitializeResponse>;
