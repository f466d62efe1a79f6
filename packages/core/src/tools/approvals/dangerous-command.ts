// Commands that destroy work even inside the sandbox's writable roots, so every policy that can ask
// asks first (and `never` refuses them): forced removal and history-rewriting git operations.

/** Whether one plain command (its words) might destroy work. */
export function isDangerousCommand(words: readonly string[]): boolean {
  const [program, ...args] = words;
  if (program === undefined) return false;
  const name = program.slice(program.lastIndexOf('/') + 1);
  switch (name) {
    case 'sudo':
      return isDangerousCommand(args);
    case 'rm':
      return args.some((arg) => /^-[a-zA-Z]*f/.test(arg) || arg === '--force');
    case 'git':
      return args[0] === 'reset' || args[0] === 'rm';
    default:
      return false;
  }
}
