// The config flags every Codex command takes (`-c key=value`, `--enable`, `--disable`, `-p`,
// `--strict-config`), as `node:util` parseArgs options, for programs that parse their own flags
// without commander (the app-server's bin, skein's fast paths).

/** The parseArgs options of the config flags; spread them into a program's own. */
export const CONFIG_FLAG_OPTIONS = {
  config: { type: 'string', short: 'c', multiple: true },
  enable: { type: 'string', multiple: true },
  disable: { type: 'string', multiple: true },
  profile: { type: 'string', short: 'p' },
  'strict-config': { type: 'boolean' },
} as const;
