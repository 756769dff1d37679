// Bundles the compiled CLI (dist/cli.js) into dist/bundle/, one chunk per noun, which bin/svc.js runs.
export default {
  input: 'dist/cli.js',
  platform: 'node',
  logLevel: 'warn',
  output: { dir: 'dist/bundle', format: 'esm', cleanDir: true },
};
