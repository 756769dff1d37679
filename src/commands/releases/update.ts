import { updateRelease } from '../../api/releases.js';
import { defineCommand } from '../../cli/spec.js';
import { refuseEmptyUpdate } from '../generic/write.js';
import { writeResult } from '../shared/outcome.js';
import {
  asReleaseWriter,
  type NotesFlags,
  PROJECT_ARG,
  RELEASE_FIELDS,
  RELEASES,
  releaseNotes,
  releaseNotesHelp,
  TAG_ARG,
} from './shared/options.js';

interface UpdateOptions extends NotesFlags {
  name?: string;
  clearMilestones?: boolean;
}

export const UPDATE = defineCommand<UpdateOptions>({
  name: 'update',
  description: "Change a release's title, notes or milestones",
  args: [PROJECT_ARG, TAG_ARG],
  options: RELEASES.update?.fields,
  notes: releaseNotesHelp(),
  examples: ['svc releases update acme/platform/api v1.2.0 --notes-file CHANGELOG.md', 'svc releases update 42 v1.2.0 --clear-milestones'],
  async run(ctx, [project, tag], opts) {
    refuseEmptyUpdate(RELEASES.update, opts as Record<string, unknown>);
    const description = await releaseNotes(ctx, opts);
    const milestones = opts.clearMilestones ? [] : opts.milestone;
    const http = await ctx.http({ requireToken: true });
    const release = await asReleaseWriter('developer', () =>
      updateRelease(http, project as string, tag as string, { name: opts.name, description, milestones }),
    );
    ctx.info(`updated release ${release.tag_name}`);
    await writeResult(ctx, release, RELEASE_FIELDS);
  },
});
