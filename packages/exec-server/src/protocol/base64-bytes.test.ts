import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Base64Bytes, toBase64 } from './base64-bytes.js';

describe('Base64Bytes', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        expect(Base64Bytes.parse(toBase64(data))).toEqual(data);
      }),
    );
  });

  it('rejects what is not canonical padded base64', () => {
    for (const bad of ['!!!!', 'aGk', 'aGk==', 'a=Gk', 'aGl=', 'aG k=', 'aGk=\n']) {
      expect(Base64Bytes.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('decodes megabytes without exhausting the stack', () => {
    const data = new Uint8Array(8 * 1024 * 1024).fill(0xab);
    expect(Base64Bytes.parse(toBase64(data)).byteLength).toBe(data.byteLength);
  });
});
