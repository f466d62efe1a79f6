// The folders of the workspace's packages (packages/*, ext/*, tools/*), as pnpm-workspace.yaml lists them.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Absolute paths of every folder under packages/, ext/ and tools/ that holds a package.json. */
export function packageDirs(root) {
  return ['packages', 'ext', 'tools'].flatMap((group) => {
    const groupDir = path.join(root, group);
    if (!existsSync(groupDir)) return [];
    return readdirSync(groupDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(groupDir, entry.name, 'package.json')))
      .map((entry) => path.join(groupDir, entry.name));
  });
}
