import { listRecords } from '../../api/resource.js';
import { listOption } from '../../cli/parsers.js';
import { UsageError } from '../../errors.js';
import { encodePathSegment } from '../../http/encode.js';
import type { ListVerb } from '../generic/verbs.js';
import { idDigits } from '../shared/args.js';
import { PIPELINE_STATUSES } from '../shared/service-enums.js';

function scopes(value: string): string[] {
  const list = listOption('--scope')(value);
  const unknown = list.filter((s) => !(PIPELINE_STATUSES as readonly string[]).includes(s));
  if (unknown.length) throw new UsageError(`--scope ${unknown.join(',')}: not a job status; one of ${PIPELINE_STATUSES.join(', ')}`);
  return list;
}

export const LIST: ListVerb = {
  description: "List a project's jobs newest first, or with --pipeline the jobs of one pipeline",
  filters: [
    { flags: '--pipeline <id>', help: 'only the jobs of this pipeline', parse: (value) => idDigits('pipeline id', value) },
    { flags: '--scope <statuses>', key: 'scope', help: 'only jobs in these statuses, comma-separated (failed,canceled)', parse: scopes },
    { flags: '--include-retried', key: 'include_retried', help: 'also the jobs that were retried (replaced by a newer job)' },
  ],
  // A pipeline's jobs live under the pipeline; the filters are the same.
  pages: (http, path, query, opts) =>
    listRecords(
      http,
      opts.pipeline ? path.replace(/\/jobs$/, `/pipelines/${encodePathSegment(opts.pipeline as string)}/jobs`) : path,
      query,
    ),
  examples: [
    'svc jobs list acme/platform/api --scope failed,canceled --limit 20',
    'svc jobs list 42 --pipeline 1042 --include-retried -o json --fields id,name,status',
  ],
};
