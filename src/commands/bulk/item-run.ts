import { Readable } from 'node:stream';
import type { Io } from '../../context.js';
import type { ItemRun } from '../../workflows/bulk/run.js';
import { Capture } from '../../output/capture.js';

/**
 * `svc ARGV` in this process with streams of its own: no terminal, empty stdin (so nothing can
 * prompt), the bulk run's environment. Its signal never aborts: a first Ctrl-C lets running items
 * finish, a second one ends the process.
 */
export async function runInProcess(
  runCommand: (argv: string[], io: Io) => Promise<number>,
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<ItemRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const io: Io = {
    stdin: Readable.from([]),
    stdout,
    stderr,
    env,
    isTTY: { stdin: false, stdout: false, stderr: false },
    signal: new AbortController().signal,
  };
  const exitCode = await runCommand(argv, io);
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}
