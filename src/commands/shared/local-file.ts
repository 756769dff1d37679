import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { UsageError } from '../../errors.js';

export interface LocalFile {
  path: string;
  size: number;
}

/** A regular, readable file, checked before any request so a typo costs nothing on the server. */
export async function readableFile(flag: string, path: string): Promise<LocalFile> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${flag} ${path}: is a directory, not a file`);
    if (!info.isFile()) throw new UsageError(`${flag} ${path}: not a regular file`);
    size = info.size;
    await access(path, constants.R_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${flag} ${path}: ${describeFsError(error)}`);
  }
  return { path, size };
}

/** The whole file as UTF-8 text (pipeline variables, snippet content). */
export async function readTextFile(flag: string, path: string): Promise<string> {
  await readableFile(flag, path);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${path}: ${describeFsError(error)}`);
  }
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const known: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent of it is not a directory',
    ENOSPC: 'no space left on the device',
    EROFS: 'read-only file system',
    EEXIST: 'already exists',
  };
  if (code && known[code]) return known[code];
  return code ?? (error instanceof Error ? error.message : String(error));
}
