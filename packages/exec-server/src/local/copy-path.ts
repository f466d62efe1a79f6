// Copying files, symlinks (as symlinks) and directory trees without following links out of the source.
import { copyFile, lstat, mkdir, opendir, readlink, realpath, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { FileSystemError } from '../file-system-error.js';

/** Copies `source` to `destination`; directories need `recursive` and merge into an existing one. */
export async function copyPath(source: string, destination: string, recursive: boolean): Promise<void> {
  const info = await lstat(source);
  if (info.isSymbolicLink()) return copySymlink(source, destination);
  if (info.isFile()) return copyFile(source, destination);
  if (!info.isDirectory()) {
    throw new FileSystemError('InvalidArgument', 'fs/copy only copies regular files, directories and symlinks');
  }
  if (!recursive) {
    throw new FileSystemError('InvalidArgument', 'fs/copy requires recursive: true when sourcePath is a directory');
  }
  const from = await realpath(source);
  const to = await resolveAsFarAsExists(destination);
  if (to === from || to.startsWith(from.endsWith(path.sep) ? from : from + path.sep)) {
    throw new FileSystemError('InvalidArgument', 'fs/copy cannot copy a directory to itself or one of its descendants');
  }
  // An explicit stack instead of recursion: deep trees must not exhaust the call stack.
  const pending: [string, string][] = [[source, destination]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [fromDirectory, toDirectory] = pair;
    await makeDirectory(toDirectory);
    for await (const dirent of await opendir(fromDirectory)) {
      const child = path.join(fromDirectory, dirent.name);
      const target = path.join(toDirectory, dirent.name);
      if (dirent.isDirectory()) pending.push([child, target]);
      else if (dirent.isSymbolicLink()) await copySymlink(child, target);
      else if (dirent.isFile()) await copyFile(child, target);
      // Sockets, FIFOs and devices are not content; they are left behind.
    }
  }
}

async function makeDirectory(directory: string): Promise<void> {
  try {
    await mkdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const existing = await lstat(directory);
    if (!existing.isDirectory()) throw error;
  }
}

async function copySymlink(source: string, destination: string): Promise<void> {
  const target = await readlink(source);
  try {
    await symlink(target, destination);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const existing = await lstat(destination);
    if (existing.isDirectory()) {
      throw new FileSystemError('IsADirectory', `destination is a directory: ${destination}`, 'EISDIR');
    }
    await unlink(destination);
    await symlink(target, destination);
  }
}

/** The canonical form of `target`, resolving its longest existing prefix (the rest may not exist yet). */
async function resolveAsFarAsExists(target: string): Promise<string> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw error;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
