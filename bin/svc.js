#!/usr/bin/env node
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The hot path of CI loops: answer without loading any command code.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  let cli;
  try {
    cli = await import('../dist/cli.js');
  } catch (error) {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
      process.stderr.write('svc: not built yet: run `npm run build` first\n');
      process.exit(1);
    }
    throw error;
  }
  const code = await cli.run(argv);
  process.exitCode = code;
  // Idle keep-alive sockets must not hold the exit; stdout and stderr are synchronous here.
  setTimeout(() => process.exit(code), 1000).unref();
}
