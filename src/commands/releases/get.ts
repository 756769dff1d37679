import { getLatestRelease, getRelease, type Release } from '../../api/releases.js';
import { defineCommand } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { ApiError } from '../../http/api-error.js';
import type { HttpClient } from '../../http/client.js';
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
    const release = opts.latest ? await latestRelease(http, project as string) : await getRelease(http, project as string, tag as string);
    await ctx.printRecord(release, RELEASE_FIELDS);
  },
});

/** The permalink answers a bare 404 when the project has no release at all: say so. */
async function latestRelease(http: HttpClient, project: string): Promise<Release> {
  try {
    return await getLatestRelease(http, project);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404 || /project not found/i.test(error.message)) throw error;
    throw new ApiError(error.status, error.body, `${error.message} (project ${project} has no release)`, error.exitCode);
  }
}
