import { describe, expect, it } from 'vitest';
import { realtimeUrl } from './realtime-socket.js';

describe('realtimeUrl', () => {
  it.each([
    ['wss://api.openai.com', 'wss://api.openai.com/v1/realtime?model=m'],
    ['ws://127.0.0.1:8765/', 'ws://127.0.0.1:8765/v1/realtime?model=m'],
    ['ws://127.0.0.1:8765/v1', 'ws://127.0.0.1:8765/v1/realtime?model=m'],
    ['https://proxy.example/openai/v1/realtime?x=1', 'wss://proxy.example/openai/v1/realtime?model=m'],
    ['http://proxy.example/openai', 'ws://proxy.example/openai/v1/realtime?model=m'],
  ])('puts %s and the model together as %s', (base, expected) => {
    expect(realtimeUrl(base, 'm').href).toBe(expected);
  });

  it.each([['file:///etc/passwd', /must be a ws/], ['not a url', /is not a URL/]])('refuses %s', (base, message) => {
    expect(() => realtimeUrl(base, 'm')).toThrow(message);
  });
});
