import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { requiredTextParser } from '../shared/args.js';
import { DELETE } from './delete.js';
import { EXPORT } from './export.js';
import { IMPORT } from './import.js';
import { ARCHIVE, FORK, RESTORE, SHARE, TRANSFER, UNARCHIVE, UPDATE } from './lifecycle.js';
import { groupId } from '../shared/args.js';
import { LIST } from './list.js';
import { PROJECTS } from './shared/resource.js';

const SHARES = {
  ...PROJECTS,
  path: '/projects/:project/share',
  id: 'group',
  params: {
    ...PROJECTS.params,
    group: { help: 'id or full path of the group the project is shared with', parse: requiredTextParser('group'), resolve: groupId },
  },
};

export const commands = [
  listVerb(PROJECTS, LIST),
  getVerb(PROJECTS, { description: 'Show one project', examples: ['svc projects get 42', 'svc projects get my-group/my-project -o json'] }),
  writeVerb(PROJECTS, {
    name: 'create',
    description: 'Create a project; validation errors are shown field by field (exit 6)',
    examples: [
      'svc projects create --name "API docs" --path api-docs --namespace acme/platform --visibility internal',
      'svc projects create --name scratch -o json --fields id,web_url',
    ],
  }),
  IMPORT,
  EXPORT,
  UPDATE,
  ARCHIVE,
  UNARCHIVE,
  TRANSFER,
  SHARE,
  FORK,
  DELETE,
  RESTORE,
  writeVerb(SHARES, {
    name: 'unshare',
    method: 'DELETE',
    description: 'Stop sharing a project with a group (prints nothing on stdout; the exit code is the result)',
    done: ({ args: [project, group] }) => `project ${String(project)} is no longer shared with group ${String(group)}`,
    scheduled: ([project, group]) => `removing the share of project ${String(project)} with group ${String(group)} was accepted`,
    examples: ['svc projects unshare acme/platform/api 5', 'svc projects unshare acme/platform/api acme/reviewers'],
  }),
];
