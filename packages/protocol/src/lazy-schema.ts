// Schemas built on first use: a program compiles every schema its modules declare before it can
// answer anything, and most of them (sandbox policies, the methods a client has not called yet)
// are not needed for the first answer (issue #18). The schema validates exactly as when built eagerly.

/**
 * A stand-in for the schema `build` returns, built the first time anything touches it (a parse, a
 * method such as `.nullish()`, another schema that embeds it). Types are unchanged, so `z.infer`
 * and every call read as with the schema itself. A shape (an object of schemas that others spread
 * into theirs) can be deferred the same way. The stand-in is not the schema's identity: metadata
 * keyed by the schema object (`.register()`, `.meta()` read back by `z.toJSONSchema`) is not
 * found through it, and it cannot be frozen. Build such schemas eagerly.
 *
 * @example
 * export const Policy = lazySchema(() => z.object({ mode: z.enum(['read', 'write']) }));
 * Policy.parse({ mode: 'read' }); // builds it, then parses
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => {
      const target = schema();
      const value: unknown = Reflect.get(target, key, target);
      return value;
    },
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: the proxy's own (empty) target holds none of these properties.
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
  });
}
