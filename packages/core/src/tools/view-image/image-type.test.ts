// Image recognition by signature: each supported format, near misses, and short inputs.
import { describe, expect, it } from 'vitest';
import { IMAGE_SIGNATURE_BYTES, sniffImageType } from './image-type.js';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)));

describe('sniffImageType', () => {
  it.each([
    ['image/png', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['image/gif', bytes('GIF87a', [1, 0])],
    ['image/gif', bytes('GIF89a', [1, 0])],
    ['image/webp', bytes('RIFF', [0x1c, 0, 0, 0], 'WEBPVP8L')],
  ])('recognises %s by its signature', (type, data) => {
    expect(sniffImageType(data)).toBe(type);
  });

  it.each([
    ['text that names a format', bytes('PNG image, honest')],
    ['a RIFF file that is not WebP', bytes('RIFF', [0x1c, 0, 0, 0], 'WAVEfmt ')],
    ['a GIF signature of an unknown version', bytes('GIF88a', [1, 0])],
    ['a PNG signature cut short', bytes([0x89], 'PNG\r\n')],
    ['a WebP header cut short', bytes('RIFF', [0x1c, 0, 0, 0], 'WEB')],
    ['nothing', bytes()],
  ])('rejects %s', (_, data) => {
    expect(sniffImageType(data)).toBeUndefined();
  });

  it('needs no more than IMAGE_SIGNATURE_BYTES to decide', () => {
    const webp = bytes('RIFF', [0x1c, 0, 0, 0], 'WEBPVP8L', [0x2f, 0x03]);
    expect(sniffImageType(webp.subarray(0, IMAGE_SIGNATURE_BYTES))).toBe('image/webp');
  });
});
