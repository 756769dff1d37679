import { existsSync, readFileSync } from 'node:fs';

let cachedVersion: string | undefined;

/**
 * The package's version, read from package.json (kept out of context.ts so `--help` loads no
 * chalk). The file is looked for upwards, as this module runs from `dist/` and from the bundle
 * under `dist/bundle/` alike.
 */
export function packageVersion(): string {
  cachedVersion ??= (JSON.parse(readFileSync(packageFile(), 'utf8')) as { version: string }).version;
  return cachedVersion;
}

function packageFile(): URL {
  for (let up = '../'; up.length <= 12; up += '../') {
    const candidate = new URL(`${up}package.json`, import.meta.url);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('package.json not found above the program');
}
