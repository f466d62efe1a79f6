// Help as a newcomer reads it: a subcommand's --help lists the global options it accepts too.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN } from './support/exec-run.js';

const run = promisify(execFile);

describe('skein <command> --help', () => {
  it.each(['exec', 'app-server'])('lists the global options beside %s’s own', async (command) => {
    const { stdout } = await run(process.execPath, [BIN, command, '--help']);
    for (const option of ['-c, --config <key=value>', '--enable <feature>', '--disable <feature>', '-p, --profile <name>', '--strict-config', '--extension <spec>']) {
      expect(stdout).toContain(option);
    }
  });
});
