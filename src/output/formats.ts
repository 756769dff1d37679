/** The output formats (named with the global options) and the --fields list: light enough for start-up, which parses the options. */
export type { OutputFormat } from '../config/global-options.js';

export function parseFieldList(value: string): string[] {
  return value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}
