import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import envPaths from 'env-paths';
import { ExitCode, SvcError } from '../errors.js';
import { TOKEN_TYPES, type TokenType } from '../http/types.js';

/** Far more than any set of profiles needs; a bigger file is refused before it is read. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export interface Profile {
  url?: string;
  token?: string;
  tokenType?: TokenType;
  refreshToken?: string;
  oauthClientId?: string;
  caFile?: string;
}

export interface ConfigData {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

/** A config file that cannot be used: unreadable, malformed, or in a place others can change. */
export class ConfigFileError extends SvcError {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = 'ConfigFileError';
  }
}

/** Where the file is, known without touching the disk (so a broken file can be named). */
export function configFilePath(env: NodeJS.ProcessEnv): string {
  return join(resolve(env.SVC_CONFIG_DIR || envPaths('svc', { suffix: '' }).config), 'config.json');
}

/**
 * The file's reader: a file of the wrong shape (`[]`, a profile that is not an object, an unknown
 * token type) is refused like broken JSON, before anything reads it or writes over it.
 */
function parseConfigFile(text: string): ConfigData {
  const data: unknown = JSON.parse(text);
  if (!isObject(data)) throw new Error('expected a JSON object');
  if (data.activeProfile !== undefined && typeof data.activeProfile !== 'string') throw new Error('activeProfile must be a string');
  if (data.profiles === undefined) return data as unknown as ConfigData;
  if (!isObject(data.profiles)) throw new Error('profiles must be an object');
  for (const [name, profile] of Object.entries(data.profiles)) {
    if (!isObject(profile)) throw new Error(`profile '${name}' must be an object`);
    const notText = Object.keys(profile).find((key) => typeof profile[key] !== 'string');
    if (notText) throw new Error(`profiles.${name}.${notText} must be a string`);
    if (profile.tokenType !== undefined && !(TOKEN_TYPES as readonly string[]).includes(profile.tokenType as string)) {
      throw new Error(`profiles.${name}.tokenType must be one of ${TOKEN_TYPES.join(', ')} (got '${profile.tokenType}')`);
    }
  }
  return data as unknown as ConfigData;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's content, or an empty config when there is none; reading never creates anything. */
export function readConfigFile(path: string): ConfigData {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { profiles: {} };
    throw new ConfigFileError(`cannot read the config file ${path}: ${code ?? (error as Error).message}`);
  }
  checkSafe('config directory', dirname(path), statSync(dirname(path)));
  checkReadable(path, stats);
  checkSafe('config file', path, stats);
  return readData(path);
}

/** Makes the directory (0700) for a write and checks that only its owner can change it. */
export function prepareDirectory(path: string): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw writeFailure(path, (error as NodeJS.ErrnoException).code ?? 'EIO');
  }
  checkSafe('config directory', dir, statSync(dir));
}

export interface WritableConfig {
  data: ConfigData;
  /** Replaces the file: a temporary file written in full, then renamed over the old one. */
  save(data: ConfigData): void;
}

/**
 * The file as it is now, to change and save under the lock. A symlink in its place is refused:
 * the user put it there for a reason that replacing it would defeat.
 */
export function openForWrite(path: string): WritableConfig {
  let existing: Stats | undefined;
  try {
    existing = lstatSync(path);
  } catch {
    existing = undefined;
  }
  if (existing?.isSymbolicLink()) {
    throw new ConfigFileError(`refusing to write the config file ${path}: it is a symbolic link (replace it with a regular file)`);
  }
  if (existing) {
    checkReadable(path, existing);
    checkSafe('config file', path, existing);
  }
  return { data: existing ? readData(path) : { profiles: {} }, save: (next) => replaceFile(path, next) };
}

/**
 * Writes a temporary file in full, syncs it and renames it over the file, so the file is either
 * the old one or the new one. A short write (a full disk, a file size limit) is a failure, never a
 * truncated file in place of the old one.
 */
function replaceFile(path: string, data: ConfigData): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    // With a descriptor, writeFileSync writes until everything is written or a write fails.
    writeFileSync(fd, JSON.stringify(data, undefined, '\t'));
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw writeFailure(path, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

/** A place the user cannot write: a setup mistake, fixed by choosing another directory (exit 2). */
const UNWRITABLE_PLACE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ELOOP']);

export function writeFailure(path: string, code: string): SvcError {
  if (UNWRITABLE_PLACE.has(code)) {
    return new SvcError(
      `cannot write the config file ${path}: ${code}; set SVC_CONFIG_DIR to a directory you can write (or fix that one)`,
      ExitCode.usage,
    );
  }
  return new SvcError(`cannot write the config file ${path}: ${code} (SVC_CONFIG_DIR chooses another directory)`, ExitCode.failure);
}

/** The file's content, checked for type and size on the descriptor that reads it. */
function readData(path: string): ConfigData {
  let text: string;
  let fd: number | undefined;
  try {
    // Non-blocking, so that a FIFO put in the file's place after the check cannot hang the open.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    checkReadable(path, fstatSync(fd));
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    throw error instanceof ConfigFileError ? error : readFailure(path, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  try {
    const data = parseConfigFile(text);
    return { ...data, profiles: isObject(data.profiles) ? data.profiles : {} };
  } catch (error) {
    throw readFailure(path, error);
  }
}

/**
 * Only a regular file of a sane size is opened: a FIFO or device would block the open (and with
 * it Ctrl-C), and a huge file would be read whole into memory.
 */
function checkReadable(path: string, stats: Stats): void {
  if (!stats.isFile()) {
    throw new ConfigFileError(`refusing the config file ${path}: it is ${fileKind(stats)}, not a regular file (replace or remove it)`);
  }
  if (stats.size > MAX_CONFIG_BYTES) {
    throw new ConfigFileError(
      `refusing the config file ${path}: it is ${stats.size} bytes, more than the ${MAX_CONFIG_BYTES} a config file may have (fix or remove it)`,
    );
  }
}

function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a special file';
}

function readFailure(path: string, error: unknown): ConfigFileError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code ?? `${(error as Error).message.split('\n')[0]} (fix or remove it)`;
  return new ConfigFileError(`cannot read the config file ${path}: ${reason}`);
}

/** ssh's rule for its own files: owned by the user or root, and writable by nobody else. */
function checkSafe(what: 'config directory' | 'config file', path: string, stats: Stats): void {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid && stats.uid !== 0) {
    throw new ConfigFileError(`refusing the ${what} ${path}: it belongs to uid ${stats.uid}, not to you (uid ${uid}) or root`);
  }
  if (stats.mode & 0o022) {
    const mode = (stats.mode & 0o777).toString(8).padStart(4, '0');
    throw new ConfigFileError(
      `refusing the ${what} ${path}: it is writable by group or others (mode ${mode}); fix it with chmod go-w ${path}`,
    );
  }
}
