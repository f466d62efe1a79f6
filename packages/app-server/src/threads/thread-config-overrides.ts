// A client's thread settings (`thread/start`, resume, fork, turn overrides) as `-c` overrides, so
// they layer over config.toml exactly like command-line overrides and are validated the same way.

/** Settings a client may set on a thread. */
export interface ThreadSettingsParams {
  readonly model?: string | null | undefined;
  readonly modelProvider?: string | null | undefined;
  readonly approvalPolicy?: unknown;
  readonly sandbox?: string | null | undefined;
  readonly config?: Readonly<Record<string, unknown>> | null | undefined;
  readonly baseInstructions?: string | null | undefined;
  readonly developerInstructions?: string | null | undefined;
  readonly effort?: string | null | undefined;
  readonly summary?: string | null | undefined;
}

/** The overrides, lowest precedence first: the client's `config` map, then its named settings. */
export function threadConfigOverrides(params: ThreadSettingsParams): string[] {
  const overrides: string[] = [];
  for (const [key, value] of Object.entries(params.config ?? {})) {
    if (value !== null && value !== undefined) overrides.push(`${key}=${tomlValue(value)}`);
  }
  const named: [string, unknown][] = [
    ['model', params.model],
    ['model_provider', params.modelProvider],
    ['approval_policy', params.approvalPolicy],
    ['sandbox_mode', params.sandbox],
    ['instructions', params.baseInstructions],
    ['developer_instructions', params.developerInstructions],
    ['model_reasoning_effort', params.effort],
    ['model_reasoning_summary', params.summary],
  ];
  for (const [key, value] of named) if (value !== null && value !== undefined) overrides.push(`${key}=${tomlValue(value)}`);
  return overrides;
}

/** A JSON value as an inline TOML value. */
export function tomlValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // A TOML date-time a config layer held (smol-toml's dates are Dates) goes back as a TOML literal.
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, inner]) => inner !== null && inner !== undefined);
    return `{ ${entries.map(([key, inner]) => `${JSON.stringify(key)} = ${tomlValue(inner)}`).join(', ')} }`;
  }
  throw new TypeError(`cannot express ${String(value)} in TOML`);
}
