import { Readable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { RunResult } from './harness.js';
import { Capture } from '../../src/output/capture.js';

/** `svc args…` through the same entry as the binary, with memory streams and the given environment. */
export async function runInProcess(
  args: string[],
  env: Record<string, string>,
  input?: string | Buffer,
  now?: () => number,
): Promise<RunResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const stdin = Readable.from(input === undefined ? [] : [Buffer.from(input)]);
  const exitCode = await main(args, {
    stdin,
    stdout,
    stderr,
    env,
    isTTY: { stdin: false, stdout: false, stderr: false },
    signal: new AbortController().signal,
    now,
  });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}
