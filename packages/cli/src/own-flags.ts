// What a subcommand's fast path (app-server, exec-server) checks before it skips the command tree:
// help and anything its own parser refuses go the full way, so they read exactly as with commander.

/** Whether `args` ask for help; checked before the subcommand's modules load. */
export function asksForHelp(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--help' || arg === '-h');
}

/** `parse(args)` when every flag is the subcommand's own and none asks for help; undefined otherwise. */
export function ownFlags<S extends { readonly help: boolean }>(args: readonly string[], parse: (args: readonly string[]) => S): S | undefined {
  let settings: S;
  try {
    settings = parse(args);
  } catch {
    return undefined;
  }
  return settings.help ? undefined : settings;
}
