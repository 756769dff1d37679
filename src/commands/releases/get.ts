import { getLatestRelease, getRelease } from '../../api/releases.js';
import { defineCommand } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { PROJECT_ARG, RELEASE_FIELDS, TAG_ARG, releaseNotesHelp } from './shared/options.js';

export const GET = defineCommand<{ latest?: boolean }>({
  name: 'get',
  description: 'Show one release by its tag, or with --latest the one released last',
  args: [PROJECT_ARG, { ...TAG_ARG, optional: true }],
  options: [{ flags: '--latest', help: 'the release with the latest release date (exit 5 when there is none)' }],
  notes: releaseNotesHelp(),
  examples: ['svc releases get acme/platform/api v1.2.0', 'svc releases get $CI_PROJECT_ID --latest --fields tag_name -o tsv'],
  async run(ctx, [project, tag], opts) {
    if ((tag === undefined) === !opts.latest) throw new UsageError('give either a tag or --latest');
    const http = await ctx.http();
    const release = opts.latest
      ? await getLatestRelease(http, project as string)
      : await getRelease(http, project as string, tag as string);
    await ctx.printRecord(release, RELEASE_FIELDS);
  },
});
