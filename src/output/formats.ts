/** The output formats and the --fields list: light enough for start-up, which parses the options. */
export type OutputFormat = 'table' | 'json' | 'ndjson' | 'tsv';
export const OUTPUT_FORMATS: OutputFormat[] = ['table', 'json', 'ndjson', 'tsv'];

export function parseFieldList(value: string): string[] {
  return value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}
