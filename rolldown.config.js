// Bundles the compiled CLI (dist/cli.js) into dist/bundle/, one chunk per noun, which bin/svc.js runs.
export default {
  input: 'dist/cli.js',
  platform: 'node',
  logLevel: 'warn',
  transform: {
    // undici's cookie helpers read globalThis.Headers once at load, which makes Node load its own
    // built-in copy of undici (about 10 ms and 2 MB per run); svc uses no cookie or fetch API.
    define: { 'globalThis.Headers': 'undefined' },
  },
  output: { dir: 'dist/bundle', format: 'esm', cleanDir: true },
};
