import { describe, expect, it } from 'vitest';
import { ListenAddressError, checkListenerExposure, isLoopbackHost, parseListenAddress, parseWebSocketAddress } from './listen-address.js';

describe('parseListenAddress', () => {
  it('reads stdio in both spellings and ws://IP:PORT', () => {
    expect(parseListenAddress('stdio')).toEqual({ kind: 'stdio' });
    expect(parseListenAddress('stdio://')).toEqual({ kind: 'stdio' });
    expect(parseListenAddress('ws://127.0.0.1:0')).toEqual({ kind: 'websocket', host: '127.0.0.1', port: 0 });
    expect(parseListenAddress('ws://[::1]:4500')).toEqual({ kind: 'websocket', host: '::1', port: 4500 });
  });

  it('refuses anything but an IP literal with a port over ws:', () => {
    for (const listen of ['http://127.0.0.1:1', 'ws://localhost:1', 'ws://127.0.0.1', 'ws://127.0.0.1:1/path', 'nonsense']) {
      expect(() => parseWebSocketAddress(listen), listen).toThrow(ListenAddressError);
    }
  });
});

describe('isLoopbackHost', () => {
  it('knows the loopback addresses in every spelling', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::0001', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('treats every other address as reachable from elsewhere', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '1::', '1::1', '::2', '::ffff:10.0.0.1', '::127.0.0.1', 'localhost']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('checkListenerExposure', () => {
  it('refuses an unauthenticated non-loopback listener, naming the flags that fix it', () => {
    let thrown: unknown;
    try {
      checkListenerExposure({ host: '0.0.0.0', port: 4500 }, false);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ListenAddressError);
    expect(thrown).toMatchObject({ code: 'UnauthenticatedNonLoopback' });
    expect((thrown as Error).message).toMatch(/non-loopback websocket listener 0\.0\.0\.0:4500 without auth/);
    expect((thrown as Error).message).toMatch(/--ws-auth capability-token.*--ws-token-file PATH.*--ws-token-sha256 HEX.*--ws-auth signed-bearer-token.*--ws-shared-secret-file PATH/);
    expect(() => checkListenerExposure({ host: '::', port: 1 }, false)).toThrow(/\[::\]:1/);
  });

  it('lets loopback listeners run without auth and any listener run with it', () => {
    expect(() => checkListenerExposure({ host: '127.0.0.1', port: 0 }, false)).not.toThrow();
    expect(() => checkListenerExposure({ host: '::1', port: 0 }, false)).not.toThrow();
    expect(() => checkListenerExposure({ host: '0.0.0.0', port: 0 }, true)).not.toThrow();
  });
});
