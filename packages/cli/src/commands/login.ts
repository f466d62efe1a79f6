// `skein login --with-api-key`, `skein login status` and `skein logout`: the API key kept in
// `$CODEX_HOME/auth.json`, read and written as Codex 0.171.0 does (its status lines too, which
// scripts read), so a key saved by `codex login --with-api-key` serves skein and the reverse.
// Skein signs in with API keys only: a ChatGPT sign-in is refused with the way to use a key.
import type { Command } from 'commander';
import type { ProgramIo } from '../program.js';

const CHECKED_LATER = 'Authentication is checked when you send a request.';

/** Adds `login` (with `status`) and `logout` to `program`. */
export function addLoginCommand(program: Command, io: ProgramIo, setExitCode: (code: number) => void): void {
  const home = async () => (await import('@skein/config')).resolveHomeDir(io.env);
  const login = program
    .command('login')
    .description('save an API key (read from stdin) for skein and Codex to use')
    .option('--with-api-key', 'read the API key from stdin, e.g. printenv OPENAI_API_KEY | skein login --with-api-key')
    .action(async (options: { withApiKey?: boolean }) => {
      if (options.withApiKey !== true) {
        io.stderr('skein signs in with an API key only: pipe one to `skein login --with-api-key`\n');
        setExitCode(1);
        return;
      }
      io.stderr('Reading API key from stdin...\n');
      const key = (await io.readStdin()).trim();
      if (key === '') {
        io.stderr('No API key provided via stdin.\n');
        setExitCode(1);
        return;
      }
      const { saveApiKey } = await import('@skein/config');
      await saveApiKey(await home(), key);
      io.stderr(`API key saved. ${CHECKED_LATER}\n`);
    });
  login
    .command('status')
    .description('say whether an API key is saved')
    .action(async () => {
      const { maskApiKey, readSavedApiKey } = await import('@skein/config');
      const key = await readSavedApiKey(await home());
      if (key === undefined) {
        io.stderr('Not logged in\n');
        setExitCode(1);
        return;
      }
      io.stderr(`API key configured - ${maskApiKey(key)}\n${CHECKED_LATER}\n`);
    });
  program
    .command('logout')
    .description('remove the saved API key')
    .action(async () => {
      const { removeSavedAuth } = await import('@skein/config');
      io.stderr((await removeSavedAuth(await home())) ? 'Successfully logged out\n' : 'Not logged in\n');
    });
}
