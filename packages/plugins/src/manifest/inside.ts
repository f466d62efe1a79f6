// A marketplace or plugin may only hand over files inside its own folder: paths are resolved through
// symbolic links first, so a linked folder or file cannot reach the rest of the machine.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { PluginError } from '../plugin-error.js';

/** Whether `child` is `parent` or inside it (both already resolved). */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** `target` resolved, when it lies inside `root` resolved; `InvalidManifest` when a link takes it outside. ENOENT passes through. */
export async function assertInside(root: string, target: string): Promise<string> {
  const [realRoot, realTarget] = await Promise.all([realpath(root), realpath(target)]);
  if (!isInside(realRoot, realTarget)) throw new PluginError('InvalidManifest', `${target} leads outside ${root} (through a symbolic link)`);
  return realTarget;
}
