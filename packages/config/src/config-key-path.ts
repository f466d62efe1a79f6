// Which dotted key paths config.toml may hold, walked through the zod schema Skein loads config with,
// so a write refuses a key nobody reads (a typo) instead of leaving it in the user's file.
import { featuresTable } from '@skein/features';
import * as z from 'zod';
import { CODEX_CONFIG_KEYS } from './codex-config-keys.js';
import { ConfigToml } from './config-toml.js';

// `[features]` is kept raw for loading; for key checks it is the table of registered features. Built
// with the first write: a host that only reads config never needs it.
let writableConfig: z.ZodObject | undefined;
const writable = (): z.ZodObject => (writableConfig ??= ConfigToml.extend({ features: featuresTable().optional() }));

/** Whether `schema` can hold `path` below it: objects know their fields, records and loose objects take any key. */
function holds(schema: z.ZodType, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return holds(schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodUnion) return (schema.options as readonly z.ZodType[]).some((option) => holds(option, path));
  if (schema instanceof z.ZodRecord) return holds(schema.valueType as z.ZodType, path.slice(1));
  if (schema instanceof z.ZodObject) {
    const [head = '', ...rest] = path;
    const field = (schema.shape as Record<string, z.ZodType | undefined>)[head];
    if (field !== undefined) return holds(field, rest);
    const catchall = schema._zod.def.catchall;
    return catchall !== undefined && !(catchall instanceof z.ZodNever);
  }
  // A leaf type (string, number, array, enum): nothing below it is a key.
  return schema instanceof z.ZodUnknown || schema instanceof z.ZodAny;
}

/**
 * Whether `path` (`["model_providers", "mock", "base_url"]`) is a key config.toml may set. Below a
 * top-level key only Codex acts on (`tui`, `notify`, `hooks`, …) anything goes: Skein does not model
 * those tables, and a Codex client writes them. `[features]` takes the registered feature names.
 */
export function isConfigKeyPath(path: readonly string[]): boolean {
  const [top = ''] = path;
  const config = writable();
  if (Object.hasOwn(config.shape, top)) {
    if (top === 'features') return path.length === 1 || (Object.hasOwn(featuresTable().shape, path[1] ?? '') && holds(featuresTable(), path.slice(1)));
    return holds(config, path);
  }
  return CODEX_CONFIG_KEYS.has(top);
}
