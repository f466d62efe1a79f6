// Bytes on the exec-server wire: standard, padded base64 strings, decoded strictly so a typo is an error, not data.
import { lazySchema } from '@skein/protocol/executor';
import * as z from 'zod';

/** The `params.code` of the issue a bad base64 string raises. */
export const INVALID_BASE64 = 'InvalidBase64';

/** A base64 string on the wire, parsed to its bytes; anything but canonical padded base64 is rejected. */
export const Base64Bytes = lazySchema(() => z.string().transform((value, ctx): Uint8Array => {
  // Node's decoder skips what it does not understand, so the bytes re-encode to the input exactly
  // when the input was canonical: this one comparison catches stray characters, misplaced padding
  // and trailing bits, in linear time (a regular expression took milliseconds per megabyte).
  const decoded = value.length % 4 === 0 ? Buffer.from(value, 'base64') : undefined;
  if (decoded === undefined || decoded.toString('base64') !== value) {
    ctx.addIssue({
      code: 'custom',
      message: 'expected standard padded base64',
      params: { code: INVALID_BASE64 },
      input: value.length > 64 ? `${value.slice(0, 64)}…` : value,
    });
    return z.NEVER;
  }
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
}));

/** Encodes bytes for the wire. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
