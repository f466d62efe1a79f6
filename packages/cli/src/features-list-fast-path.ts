// `skein features list` without the command tree: commander and its module graph are most of what
// the command costs beyond Node's own start (issue #18). Taken only when what follows `features list`
// parses as the global options; anything else, and any failure, goes the full way and reads as before.
// First: every schema the program builds is built jitless.
import './zod-jitless.js';
import { parseArgs } from 'node:util';
import { CONFIG_FLAG_OPTIONS } from '@skein/config';
import type { FastPath } from './fast-path.js';

/** Prints the feature table for `args` (what follows `features list`); undefined when the command tree must. */
export const runFastPath: FastPath = async (args) => {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: CONFIG_FLAG_OPTIONS,
    }));
  } catch {
    return undefined;
  }
  const { printFeatureList } = await import('./commands/features-list.js');
  const options = { config: values.config ?? [], enable: values.enable ?? [], disable: values.disable ?? [], profile: values.profile, strictConfig: values['strict-config'] ?? false, dangerouslyBypassHookTrust: false };
  // Output goes out only once the config has loaded: a failure prints nothing here, and the full path
  // loads it again to report the error exactly as it always has.
  let out = '';
  let err = '';
  try {
    await printFeatureList(options, { cwd: process.cwd(), env: process.env, stdout: (text) => (out += text), stderr: (text) => (err += text) });
  } catch {
    return undefined;
  }
  process.stderr.write(err);
  process.stdout.write(out);
  return 0;
};
