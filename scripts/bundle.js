// Bundles the compiled CLI into dist/bundle/ through rolldown's API: its command line prints every
// chunk and a "Finished" line on each build, whatever the log level.
import { rolldown } from 'rolldown';

const build = await rolldown({ input: 'dist/cli.js', platform: 'node', logLevel: 'warn' });
try {
  await build.write({ dir: 'dist/bundle', format: 'esm', cleanDir: true });
} finally {
  await build.close();
}
