import { deleteRelease } from '../../api/releases.js';
import { defineCommand } from '../../cli/spec.js';
import { confirmDestructive, YES_OPTION } from '../shared/confirm.js';
import { asReleaseWriter, PROJECT_ARG, RELEASE_FIELDS, releaseNotesHelp, TAG_ARG } from './shared/options.js';
import { writeResult } from '../shared/outcome.js';

export const DELETE = defineCommand<{ yes?: boolean }>({
  name: 'delete',
  description: 'Delete a release (the tag stays) and print the release as it was',
  args: [PROJECT_ARG, TAG_ARG],
  options: [YES_OPTION],
  notes: releaseNotesHelp(),
  examples: ['svc releases delete acme/platform/api v1.2.0-rc.1', 'svc releases delete "$CI_PROJECT_PATH" "$CI_COMMIT_TAG" --yes'],
  async run(ctx, [project, tag], opts) {
    await confirmDestructive(ctx, opts.yes, `Delete the release ${String(tag)} of ${String(project)}`);
    const http = await ctx.http({ requireToken: true });
    const release = await asReleaseWriter('maintainer', () => deleteRelease(http, project as string, tag as string));
    ctx.info(`deleted release ${release.tag_name} (the tag ${release.tag_name} is kept)`);
    await writeResult(ctx, release, RELEASE_FIELDS);
  },
});
