// The files `svc sandbox` reads and writes: the scenario (--scenario) and the state (--state),
// which is written atomically (a temporary file renamed over the old one) so that a kill while
// writing leaves the previous state whole.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import type { Scenario, StateFile } from '../../sandbox/index.js';

function readText(path: string, what: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && what === 'state') return null;
    throw new UsageError(`sandbox: cannot read the ${what} file ${path}: ${code ?? (error as Error).message}`);
  }
}

/** The scenario of a file; every mistake in it is one line (`svc: file:line: field: problem`), the last one thrown. */
export async function readScenario(path: string, stderr: NodeJS.WritableStream): Promise<Scenario> {
  const text = readText(path, 'scenario')!;
  const { parseScenario } = await import('../../sandbox/index.js');
  const parsed = parseScenario(text, path);
  if (parsed.ok) return parsed.scenario;
  for (const mistake of parsed.mistakes.slice(0, -1)) stderr.write(`svc: ${mistake}\n`);
  throw new UsageError(parsed.mistakes.at(-1)!);
}

/** What a state file keeps (nothing when it does not exist yet); one from another world is refused. */
export function readState(path: string, world: string, format: string): Pick<StateFile, 'createdAt' | 'journal'> | null {
  const text = readText(path, 'state');
  if (text === null) return null;
  let state: Partial<StateFile>;
  try {
    state = JSON.parse(text) as Partial<StateFile>;
  } catch {
    state = {};
  }
  if (state.format !== format || !Array.isArray(state.journal) || typeof state.world !== 'string' || typeof state.createdAt !== 'number')
    throw new UsageError(`sandbox: ${path} is not a sandbox state file`);
  if (state.world !== world)
    throw new UsageError(`sandbox: the state file ${path} was written for another world (${state.world}), not this one (${world})`);
  return { createdAt: state.createdAt, journal: state.journal };
}

/**
 * Refuses, before the sandbox starts, a state file that could never be written: the state is written only at
 * exit, so a directory that does not exist or cannot be written to would lose every write of the run.
 */
export function checkStateWritable(path: string): void {
  const directory = dirname(resolve(path));
  const refuse = (why: string) => new UsageError(`sandbox: cannot write the state file ${path}: ${why}`);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(directory).isDirectory();
  } catch {
    throw refuse(`directory ${directory} does not exist`);
  }
  if (!isDirectory) throw refuse(`${directory} is not a directory`);
  try {
    accessSync(directory, constants.W_OK | constants.X_OK);
  } catch {
    throw refuse(`directory ${directory} is not writable`);
  }
}

export function writeState(path: string, state: StateFile): void {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(state)}\n`);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
