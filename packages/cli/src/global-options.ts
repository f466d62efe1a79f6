// The options every skein subcommand shares, as Codex spells them, and how they become a config load.
import type { LoadedConfig } from '@skein/config';
import type { ModuleImporter } from '@skein/core';
import type { Command } from 'commander';

/** Parsed global options. */
export interface GlobalOptions {
  readonly config: string[];
  readonly enable: string[];
  readonly disable: string[];
  readonly profile: string | undefined;
  readonly strictConfig: boolean;
  readonly dangerouslyBypassHookTrust: boolean;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Adds `-c/--config`, `--enable`, `--disable`, `-p/--profile` and `--strict-config` to `command`. */
export function addGlobalOptions(command: Command): Command {
  return command
    .option('-c, --config <key=value>', 'override a config.toml value (dotted key; the value is TOML, else a string)', collect, [])
    .option('--enable <feature>', 'turn a feature on (same as -c features.<feature>=true)', collect, [])
    .option('--disable <feature>', 'turn a feature off (same as -c features.<feature>=false)', collect, [])
    .option('-p, --profile <name>', 'use the [profiles.<name>] table of config.toml')
    .option('--strict-config', 'treat unknown or unsupported config keys as errors', false)
    .option('--dangerously-bypass-hook-trust', 'run every enabled lifecycle hook, trusted or not, for this run (for automation that vets its hooks itself)', false);
}

/** The process's environment, read once at the edge. */
export interface ProcessContext {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How extension modules are imported (skein's executable lends its own; see bin.ts). */
  readonly importModule?: ModuleImporter | undefined;
}

/** Loads the effective config for these options. */
export async function loadConfigFor(options: GlobalOptions, context: ProcessContext): Promise<LoadedConfig> {
  // Imported here, not above: building its schemas takes a while, and `exec-server` needs no config.
  const { loadConfig } = await import('./config-loader.js');
  return loadConfig({
    cwd: context.cwd,
    env: context.env,
    profile: options.profile,
    overrides: options.config,
    enable: options.enable,
    disable: options.disable,
    strict: options.strictConfig,
  });
}
