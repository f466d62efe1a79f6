// A real FileHandle whose chosen methods a test wraps (to count reads, or hold an fsync at a gate);
// every other method is the handle's own, bound to it.
import type { FileHandle } from 'node:fs/promises';

/** Wraps `method`, the handle's own `name`, or answers undefined to leave it as it is. */
export type HandleInterceptor = (name: PropertyKey, method: (...args: unknown[]) => unknown) => ((...args: unknown[]) => unknown) | undefined;

export function interceptedHandle(handle: FileHandle, intercept: HandleInterceptor): FileHandle {
  return new Proxy(handle, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      return intercept(property, method) ?? method;
    },
  });
}
