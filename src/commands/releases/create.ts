import { createRelease, type ReleaseLinkInput } from '../../api/releases.js';
import { collect } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { requiredTextParser } from '../shared/args.js';
import { parseAssignment } from '../shared/assignment.js';
import { writeResult } from '../shared/outcome.js';
import {
  asReleaseWriter,
  notesOptions,
  type NotesFlags,
  PROJECT_ARG,
  RELEASE_FIELDS,
  releaseNotes,
  releaseNotesHelp,
} from './shared/options.js';

const LINK_SCHEMES = new Set(['http:', 'https:', 'ftp:']);

interface CreateOptions extends NotesFlags {
  tag: string;
  ref?: string;
  name?: string;
  link?: string[];
}

export const CREATE = defineCommand<CreateOptions>({
  name: 'create',
  description: 'Publish a release for a tag (creating the tag from --ref when it does not exist yet)',
  args: [PROJECT_ARG],
  options: [
    { flags: '--tag <tag>', help: 'tag the release is for', parse: requiredTextParser('--tag'), required: true },
    {
      flags: '--ref <ref>',
      help: 'branch or commit to create the tag from, when the tag does not exist',
      parse: requiredTextParser('--ref'),
    },
    ...notesOptions('release title (default: the tag name)'),
    { flags: '--link <name=url>', help: 'asset link shown with the release (repeatable)', parse: collect },
  ],
  notes: releaseNotesHelp('Exit 6 when the release exists already, or when the tag is missing and no --ref is given.'),
  examples: [
    'svc releases create acme/platform/api --tag v1.2.0 --notes-file CHANGELOG.md --link linux=https://example.com/app-linux',
    'svc releases create $CI_PROJECT_ID --tag $CI_COMMIT_TAG --name "Release $CI_COMMIT_TAG" --milestone v1.2',
  ],
  async run(ctx, [project], opts) {
    const links = (opts.link ?? []).map((text): ReleaseLinkInput => {
      const [name, url] = parseAssignment('--link', text, 'URL');
      if (!url) throw new UsageError(`--link '${text}': the URL is empty`);
      if (!LINK_SCHEMES.has(URL.parse(url)?.protocol ?? '')) {
        throw new UsageError(`--link '${text}': give an absolute http, https or ftp URL (the only schemes the service takes for links)`);
      }
      return { name, url };
    });
    const description = await releaseNotes(ctx, opts);
    const http = await ctx.http({ requireToken: true });
    const release = await asReleaseWriter('developer', () =>
      createRelease(http, project as string, {
        tag_name: opts.tag,
        ref: opts.ref,
        name: opts.name,
        description,
        milestones: opts.milestone,
        assets: links.length ? { links } : undefined,
      }),
    );
    ctx.info(`created release ${release.tag_name}${release._links?.self ? `: ${release._links.self}` : ''}`);
    await writeResult(ctx, release, RELEASE_FIELDS);
  },
});
