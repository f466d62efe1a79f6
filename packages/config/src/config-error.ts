// The one error type of config loading: a stable `code`, and where the problem is (file, key).
/** Why a configuration could not be loaded. */
export type ConfigErrorCode =
  | 'InvalidToml'
  | 'UnreadableFile'
  | 'InvalidValue'
  | 'InvalidFeature'
  | 'InvalidOverride'
  | 'UnknownProfile'
  | 'UnknownProvider'
  | 'UnknownKey'
  | 'InvalidHomeDir'
  | 'InvalidEnvironments'
  | 'InvalidAuthFile';

/**
 * A configuration problem. The message reads `<origin>: <key>: <what was expected>` so a user can
 * go straight to the line; `origin` is a file path, `-c key=value` or a flag.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly code: ConfigErrorCode,
    /** Where the bad value came from: a file path, a `-c` override or a flag. */
    readonly origin: string,
    /** The dotted key at fault, when there is one. */
    readonly key: string | undefined,
    reason: string,
  ) {
    super(key === undefined ? `${origin}: ${reason}` : `${origin}: ${key}: ${reason}`);
  }
}
