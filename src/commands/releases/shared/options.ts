import { collect } from '../../../cli/parsers.js';
import type { ArgSpec, OptionSpec } from '../../../cli/spec.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { ApiError } from '../../../http/api-error.js';
import { withRole } from '../../generic/role.js';
import { helpNotes, type Resource } from '../../generic/resource.js';
import { PROJECT, PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../../shared/args.js';
import { readTextFile } from '../../shared/local-file.js';

export const RELEASE_FIELDS = ['tag_name', 'name', 'released_at', 'upcoming_release', 'commit.short_id', '_links.self'];

export const PROJECT_ARG: ArgSpec = { name: 'project', help: PROJECT_ARGUMENT, parse: projectRef };
export const TAG_ARG: ArgSpec = {
  name: 'tag',
  help: 'tag name of the release (names with / work as typed)',
  parse: requiredTextParser('tag'),
};

/** Help notes of a release verb: its own, and that a CI job token will do (every release route takes one). */
export function releaseNotesHelp(notes?: string): string | undefined {
  return helpNotes(RELEASES, notes);
}

export interface NotesFlags {
  notes?: string;
  notesFile?: string;
  milestone?: string[];
}

/** The options a release is described with; `name` says what --name does for this verb. */
export const notesOptions = (name: string): OptionSpec[] => [
  { flags: '--name <name>', help: name },
  { flags: '--notes <text>', help: 'release notes (Markdown)' },
  { flags: '--notes-file <path>', help: 'read the release notes from a file; - reads them from stdin' },
  { flags: '--milestone <title>', help: 'milestone to associate, by title (repeatable)', parse: collect },
];

export const RELEASES: Resource = {
  path: '/projects/:project/releases',
  params: { project: PROJECT },
  columns: ['tag_name', 'name', 'released_at', 'commit.short_id'],
  tokens: ['job'],
  update: {
    fields: [
      ...notesOptions('the new release title'),
      { flags: '--clear-milestones', help: 'remove every milestone from the release', conflicts: ['milestone'] },
    ],
    atLeastOne: { say: 'nothing to change' },
  },
};

/** The notes from --notes or --notes-file (a file, or stdin for -), or undefined when neither is given. */
export async function releaseNotes(ctx: Context, flags: NotesFlags): Promise<string | undefined> {
  if (flags.notes !== undefined && flags.notesFile !== undefined) throw new UsageError('give either --notes or --notes-file, not both');
  if (flags.notesFile === '-') {
    if (ctx.io.isTTY.stdin) throw new UsageError('--notes-file -: stdin is a terminal; pipe the notes in, or give a file');
    return (await ctx.readStdin()).toString('utf8');
  }
  if (flags.notesFile !== undefined) return await readTextFile('--notes-file', flags.notesFile, ctx.signal);
  return flags.notes;
}

/**
 * A refused release write names the role it takes: developer to publish or change one, maintainer
 * to delete one or to publish for a protected tag (the service names the protection in its
 * refusal). A job token refused by the target's allowlist is not a matter of role.
 */
export async function asReleaseWriter<T>(role: 'developer' | 'maintainer', call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403 || /job token/i.test(error.message)) throw error;
    return await withRole(/protected/i.test(error.message) ? 'maintainer' : role, () => Promise.reject(error));
  }
}
