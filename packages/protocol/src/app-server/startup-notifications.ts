// Notifications the app-server sends on its own rather than for a thread: config warnings and the
// remote-control status.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** A problem with the user's config that did not stop the server. */
export const ConfigWarningNotification = lazySchema(() => z.object({
  summary: z.string(),
  details: z.string().nullish(),
  path: z.string().nullish(),
}));
export type ConfigWarningNotification = z.infer<typeof ConfigWarningNotification>;

/** Whether this server can be driven remotely; Skein has no remote control, so it is always `disabled`. */
export const RemoteControlStatusChangedNotification = lazySchema(() => z.object({
  status: z.enum(['disabled', 'connecting', 'connected', 'errored']),
  serverName: z.string(),
  installationId: z.string(),
  environmentId: z.string().nullable(),
}));
export type RemoteControlStatusChangedNotification = z.infer<typeof RemoteControlStatusChangedNotification>;
