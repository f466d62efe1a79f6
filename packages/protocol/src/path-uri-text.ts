// The text rules of `file:` URIs PathUri keeps: a UNC authority (no user info, port or IP literal),
// host names, strict percent-decoding (no encoded separator or NUL) and percent-encoding.
import { fail } from './path-uri-error.js';

// RFC 3986 reg-name characters minus '%' (escapes are decoded first) plus any non-ASCII character.
const HOST = /^(?:[A-Za-z0-9\-._~!$&'()+,;=]|[\u0080-\u{10FFFF}])+$/u;
/** A UTF-16 surrogate without its pair: text that is not well-formed Unicode. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;
const DRIVE_SEGMENT = /^[A-Za-z]:$/;

/** Checks a raw (still encoded) URI authority and returns the decoded, lower-cased host. */
export function parseAuthority(authority: string, uri: string): string {
  if (authority.includes('@')) fail('CredentialsNotAllowed', 'file URIs may not carry user info (user@)', uri);
  if (DRIVE_SEGMENT.test(authority)) {
    fail('InvalidHost', 'a drive letter is not a host; write file:///C:/... with three slashes', uri);
  }
  if (authority.startsWith('[')) fail('InvalidHost', 'IP literal hosts are not supported in UNC paths', uri);
  if (authority.includes(':')) fail('PortNotAllowed', 'file URIs may not carry a port (host:port)', uri);
  return checkHost(decodeEscapes(authority, uri), uri);
}

export function checkHost(host: string, input: string): string {
  if (!HOST.test(host) || LONE_SURROGATE.test(host) || host === '.') {
    fail('InvalidHost', `${JSON.stringify(host)} is not a valid UNC host name`, input);
  }
  // Host names are case-insensitive; only ASCII is folded so the result is locale-independent.
  return host.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** Percent-decodes strictly: every `%` must start a hex pair, and the bytes must be UTF-8. */
export function decodeEscapes(raw: string, uri: string): string {
  for (let at = raw.indexOf('%'); at >= 0; at = raw.indexOf('%', at + 1)) {
    const hex = raw.slice(at + 1, at + 3);
    if (!HEX_PAIR.test(hex)) fail('MalformedEscape', `'%' must be followed by two hex digits`, uri);
    const byte = Number.parseInt(hex, 16);
    // Decoding %2F/%5C would smuggle a separator into one segment and change what '..' cancels.
    if (byte === 0x2f || byte === 0x5c) fail('EncodedSeparator', 'encoded / or \\ is not allowed in a path', uri);
    if (byte === 0) fail('NulNotAllowed', 'file URI contains an encoded NUL (%00)', uri);
  }
  try {
    return decodeURIComponent(raw);
  } catch {
    return fail('MalformedEscape', 'percent escapes do not form valid UTF-8', uri);
  }
}

/** Percent-encodes everything but RFC 3986 unreserved characters (encodeURIComponent keeps !'()*). */
export function encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
