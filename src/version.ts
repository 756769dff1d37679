import { readFileSync } from 'node:fs';

let cachedVersion: string | undefined;

/** The package's version, read from package.json (kept out of context.ts so `--help` loads no chalk). */
export function packageVersion(): string {
  cachedVersion ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cachedVersion;
}
