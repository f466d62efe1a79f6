// The body size limit keeps memory bounded and still counts every byte.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBoundedBody } from './read-bounded-body.js';

describe('readBoundedBody', () => {
  it('keeps a body within the limit', async () => {
    const body = await readBoundedBody(Readable.from([Buffer.from('ab'), 'cd']), 4);

    expect(body).toEqual({ bytes: Buffer.from('abcd'), size: 4, tooLarge: false });
  });

  it('drops a body over the limit but counts every byte', async () => {
    const body = await readBoundedBody(Readable.from([Buffer.from('abc'), Buffer.from('def')]), 4);

    expect(body).toEqual({ bytes: Buffer.alloc(0), size: 6, tooLarge: true });
  });
});
