// The tiny protocol between the executor and its sandboxed fs helper: one JSON line per request on the
// helper's stdin, one per answer on its stdout. Params and results use the exec-server's wire forms.
import { lazySchema } from '@skein/protocol/executor';
import * as z from 'zod';
import { FileSystemErrorCode } from '../file-system-error.js';

/** The operations the helper performs. */
export const HelperOperation = lazySchema(() => z.enum([
  'canonicalize',
  'readFile',
  'writeFile',
  'createDirectory',
  'getMetadata',
  'readDirectory',
  'walk',
  'remove',
  'copy',
  'open',
  'readBlock',
  'close',
]));
export type HelperOperation = z.infer<typeof HelperOperation>;

export const HelperRequest = lazySchema(() => z.object({ id: z.number().int(), op: HelperOperation, params: z.unknown() }));
export type HelperRequest = z.infer<typeof HelperRequest>;

export const HelperFailure = lazySchema(() => z.object({ code: FileSystemErrorCode, message: z.string(), errno: z.string().optional() }));
export type HelperFailure = z.infer<typeof HelperFailure>;

export const HelperResponse = lazySchema(() => z.union([
  z.object({ id: z.number().int(), result: z.unknown() }),
  z.object({ id: z.number().int(), error: HelperFailure }),
]));
export type HelperResponse = z.infer<typeof HelperResponse>;

/** The largest answer line the executor accepts from a helper: a whole file at the read limit, in base64, plus slack. */
export const MAX_HELPER_LINE_BYTES = 192 * 1024 * 1024;
