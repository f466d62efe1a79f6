// The one line a host shows as it starts when its sandbox policy needs confinement this machine
// cannot give (no bwrap, user namespaces denied, WSL1, …): said once, with the remedy, instead of
// only as each sandboxed command fails.
import { probeSandbox, type ProbeOptions } from './probe.js';

/**
 * The warning for a host whose default policy confines commands (`confines`), or undefined when
 * the sandbox works or is not needed. Only Linux and macOS are probed: a Windows host's commands
 * go to its own runner or a remote executor.
 */
export async function sandboxStartupWarning(confines: boolean, options: ProbeOptions = {}): Promise<string | undefined> {
  const platform = options.platform ?? process.platform;
  if (!confines || (platform !== 'linux' && platform !== 'darwin')) return undefined;
  // A probe that breaks (it should answer, not throw) is said as such rather than hidden.
  const capability = await probeSandbox(options).catch((error: unknown) => new Error(error instanceof Error ? error.message : String(error)));
  if (capability instanceof Error) return `Could not check whether the sandbox can run here: ${capability.message}`;
  if (capability.available) return undefined;
  return `The sandbox cannot confine commands on this machine: ${capability.reason}. ${capability.remedy}. Until then, commands that need the sandbox fail.`;
}
