import { UsageError } from '../../../errors.js';
import { itemPath, type PathParam, pathArgs, type Resource, type UpdateFields } from '../../generic/resource.js';
import { idDigits, PROJECT } from '../../shared/args.js';
import { DESCRIPTION_OPTIONS, UPDATE_BODY } from './fields.js';

export const ISSUE_FIELDS = ['id', 'iid', 'title', 'state', 'author.username', 'labels', 'created_at', 'web_url'];

/** `12` or `#12`, as the web UI shows it. */
function parseIid(value: string): string {
  const digits = value.trim().replace(/^#/, '');
  if (!digits) throw new UsageError(`invalid iid '${value}': expected the issue's number, such as 12 or #12`);
  return idDigits('iid', digits);
}

const IID: PathParam = {
  help: "the issue's iid: its number within the project (#12 in the web UI), not its global id",
  parse: parseIid,
  // A 404 for an issue most often means a global id was given where the iid belongs.
  notFoundHint: (iid, error) =>
    /project not found/i.test(error.message)
      ? undefined
      : `the path takes the issue's iid, its number within the project, not the global id; is #${iid} right?`,
};

/** What `issues update` takes: the description as text or a file, the rest as the service's parameters. */
export const ISSUE_UPDATE: UpdateFields = {
  fields: [...UPDATE_BODY.slice(0, 1), ...DESCRIPTION_OPTIONS, ...UPDATE_BODY.slice(1)],
  atLeastOne: { say: 'nothing to change' },
};

export const ISSUES: Resource = {
  path: '/projects/:project/issues',
  // Issues are a project's; their listing also gathers a group's projects' (subgroups included) or the instance's.
  owners: { kinds: ['project', 'group', 'instance'], noun: 'issues', gathered: true },
  id: 'iid',
  params: { project: PROJECT, iid: IID },
  fields: ISSUE_FIELDS,
  called: ([project, iid]) => `issue #${String(iid)} of ${String(project)}`,
  update: ISSUE_UPDATE,
  roles: { delete: 'owner' },
  confirmDelete: true,
};

/** PROJECT IID, for the hand-written verbs on one issue. */
export const ISSUE_ARGS = pathArgs(ISSUES, itemPath(ISSUES));
