import { describe, expect, it } from 'vitest';
import { FileSystemError } from '../file-system-error.js';
import { ProcessError } from '../process-api.js';
import { ExecServerClientError } from './exec-server-client-error.js';
import { fileSystemErrorFrom, processErrorFrom } from './error-from-answer.js';

describe('fileSystemErrorFrom', () => {
  it('keeps the code a Skein server puts in data', () => {
    const error = fileSystemErrorFrom({ code: -32603, message: 'Is a directory (os error 21)', data: { code: 'IsADirectory', errno: 'EISDIR' } });
    expect(error).toBeInstanceOf(FileSystemError);
    expect(error).toMatchObject({ code: 'IsADirectory', errno: 'EISDIR' });
  });

  it('recovers codes from the answers of Codex’s own server', () => {
    const cases: [number, string, string][] = [
      [-32004, 'No such file or directory (os error 2)', 'NotFound'],
      [-32603, 'File exists (os error 17)', 'AlreadyExists'],
      [-32603, 'Not a directory (os error 20)', 'NotADirectory'],
      [-32603, 'Directory not empty (os error 39)', 'DirectoryNotEmpty'],
      [-32600, 'Permission denied (os error 13)', 'PermissionDenied'],
      [-32603, 'Read-only file system (os error 30)', 'ReadOnlyFileSystem'],
      [-32600, 'path `/tmp/d` is not a file', 'NotAFile'],
      [-32600, 'path contains a symbolic link', 'SymlinkNotAllowed'],
      [-32600, 'fs/copy requires recursive: true when sourcePath is a directory', 'InvalidArgument'],
      [-32602, "missing field `path`", 'InvalidArgument'],
      [-32004, 'unknown file handle `h1`', 'NotFound'],
    ];
    for (const [code, message, expected] of cases) {
      expect(fileSystemErrorFrom({ code, message }), message).toMatchObject({ name: 'FileSystemError', code: expected });
    }
  });

  it('reports refusals of the request itself as client errors', () => {
    for (const [code, message] of [
      [-32001, 'too many requests in flight'],
      [-32601, 'exec-server stub does not implement `fs/x` yet'],
      [-32600, 'client must send initialized before using filesystem methods'],
    ] as const) {
      const error = fileSystemErrorFrom({ code, message });
      expect(error).toBeInstanceOf(ExecServerClientError);
      expect(error).toMatchObject({ code: 'Rejected', rpcError: { code, message } });
    }
  });
});

describe('processErrorFrom', () => {
  it('keeps Skein codes and recognises Codex’s answers', () => {
    expect(processErrorFrom({ code: -32600, message: 'x', data: { code: 'StdinFull' } })).toMatchObject({ code: 'StdinFull' });
    expect(processErrorFrom({ code: -32603, message: 'No such file or directory (os error 2)', data: { kind: 'spawnNotFound' } })).toMatchObject({
      code: 'SpawnFailed',
      errno: 'ENOENT',
    });
    expect(processErrorFrom({ code: -32600, message: 'process p1 already exists' })).toMatchObject({ code: 'ProcessExists' });
    expect(processErrorFrom({ code: -32600, message: 'unknown process id p2' })).toMatchObject({ code: 'UnknownProcess' });
    expect(processErrorFrom({ code: -32602, message: 'argv must not be empty' })).toBeInstanceOf(ProcessError);
  });
});
