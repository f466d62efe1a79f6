// Why a config.toml write was refused. The codes are the wire's `config_write_error_code` values, so
// a client that switches on them works against Skein as against Codex.

/** Why a config write was refused. */
export type ConfigWriteErrorCode =
  | 'configLayerReadonly'
  | 'configVersionConflict'
  | 'configValidationError'
  | 'configSchemaUnknownKey';

/** A refused config write; nothing was written. */
export class ConfigWriteError extends Error {
  override readonly name = 'ConfigWriteError';

  constructor(
    readonly code: ConfigWriteErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** Codex's wording for a value the config cannot hold: `Invalid configuration: <reason>\nin \`<key>\`\n`. */
  static invalid(reason: string, key?: string): ConfigWriteError {
    return new ConfigWriteError('configValidationError', `Invalid configuration: ${reason}\n${key === undefined ? '' : `in \`${key}\`\n`}`);
  }
}
