import { updateRelease } from '../../api/releases.js';
import { defineCommand } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { writeResult } from '../shared/outcome.js';
import {
  asReleaseWriter,
  notesOptions,
  type NotesFlags,
  PROJECT_ARG,
  RELEASE_FIELDS,
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
  options: [
    ...notesOptions('the new release title'),
    { flags: '--clear-milestones', help: 'remove every milestone from the release', conflicts: ['milestone'] },
  ],
  notes: releaseNotesHelp(),
  examples: ['svc releases update acme/platform/api v1.2.0 --notes-file CHANGELOG.md', 'svc releases update 42 v1.2.0 --clear-milestones'],
  async run(ctx, [project, tag], opts) {
    const description = await releaseNotes(ctx, opts);
    const milestones = opts.clearMilestones ? [] : opts.milestone;
    if (opts.name === undefined && description === undefined && milestones === undefined) {
      throw new UsageError('nothing to change: give --name, --notes, --notes-file, --milestone or --clear-milestones');
    }
    const http = await ctx.http({ requireToken: true });
    const release = await asReleaseWriter('developer', () =>
      updateRelease(http, project as string, tag as string, { name: opts.name, description, milestones }),
    );
    ctx.info(`updated release ${release.tag_name}`);
    await writeResult(ctx, release, RELEASE_FIELDS);
  },
});
