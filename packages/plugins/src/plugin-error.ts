// Every refusal of the plugin system carries a code a host maps to its protocol's error, and a
// message that names the plugin, marketplace or file concerned.

export type PluginErrorCode =
  /** A name, id or source the request gave cannot be one (`a/b`, `..`, an empty source). */
  | 'InvalidRequest'
  /** No such marketplace or plugin. */
  | 'NotFound'
  /** The same marketplace name already comes from another source. */
  | 'Conflict'
  /** A marketplace or plugin manifest is missing or does not parse. */
  | 'InvalidManifest'
  /** git failed (clone, fetch, checkout). */
  | 'GitFailed';

export class PluginError extends Error {
  override readonly name = 'PluginError';
  constructor(
    readonly code: PluginErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
