#!/usr/bin/env node
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// The HTTP parser is WebAssembly; V8's optimising compile of it cost a third of a one-request
// run's memory (99 → 65 MB) and more CPU than it saved, even over 100,000 listed records. Set
// before any module compiles WebAssembly, so it holds for the whole run.
setFlagsFromString('--liftoff-only');

const INTERRUPTED = 130;
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The hot path of CI loops: answer without loading any command code.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  let writeError;
  process.stdout.on('error', (error) => (writeError = error));
  process.stdout.write(`${pkg.version}\n`);
  // A failed write is reported after it returned: give its event a turn to arrive.
  await new Promise((resolve) => setImmediate(resolve));
  if (writeError) {
    const { writeFailure } = await import('../dist/output/stream-errors.js');
    const failure = writeFailure(writeError);
    if (failure) {
      process.stderr.write(`svc: ${failure.message}\n`);
      process.exitCode = failure.exitCode;
    }
  }
} else {
  let cli;
  try {
    cli = await import('../dist/bundle/cli.js');
  } catch (error) {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
      process.stderr.write('svc: not built yet: run `npm run build` first\n');
      process.exit(1);
    }
    throw error;
  }
  const controller = new AbortController();
  // Every request and wait in flight listens to this one signal: many at once is the design, not a leak.
  setMaxListeners(0, controller.signal);
  const onForcedExit = new Set();
  let firstInterruptAt = 0;
  const onSignal = () => {
    // The first press lets the command end cleanly; only a second press at least a moment later
    // (not the same keystroke delivered twice) forces the exit, after the clean-ups commands asked
    // for (a half-written download's temporary file).
    if (firstInterruptAt && Date.now() - firstInterruptAt > 250) {
      for (const cleanup of onForcedExit) cleanup();
      process.exit(INTERRUPTED);
    }
    firstInterruptAt ||= Date.now();
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A reader that goes away (`| head`) ends the output, not the command: the writer sees the
  // closed stream, a listing stops early, and the command's own outcome decides the exit code.
  process.stdout.on('error', () => {});
  const code = await cli.main(argv, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    isTTY: {
      stdin: Boolean(process.stdin.isTTY),
      stdout: Boolean(process.stdout.isTTY),
      stderr: Boolean(process.stderr.isTTY),
    },
    signal: controller.signal,
    onForcedExit: (cleanup) => {
      onForcedExit.add(cleanup);
      return () => onForcedExit.delete(cleanup);
    },
  });
  process.exitCode = code;
  // Idle keep-alive sockets must not hold the exit; stdout and stderr are synchronous here.
  setTimeout(() => process.exit(code), 1000).unref();
}
