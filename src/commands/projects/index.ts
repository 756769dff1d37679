import { getNamespace } from '../../api/namespaces.js';
import type { HttpClient } from '../../http/client.js';
import { namingRole } from '../generic/role.js';
import { actionVerb, getVerb, listVerb, writeVerb } from '../generic/verbs.js';
import { requiredTextParser } from '../shared/args.js';
import { DELETE } from './delete.js';
import { EXPORT } from './export.js';
import { IMPORT } from './import.js';
import { ARCHIVE, FORK, RESTORE, SHARE, TRANSFER, UNARCHIVE, UPDATE } from './lifecycle.js';
import { groupId } from '../shared/args.js';
import { LIST } from './list.js';
import { PROJECTS } from './shared/resource.js';
import { VISIBILITIES } from '../shared/service-enums.js';

/** The create endpoint takes a namespace id; a path is looked up first. */
async function namespaceId(http: HttpClient, namespace: unknown): Promise<number> {
  const trimmed = String(namespace).trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return (await getNamespace(http, trimmed)).id;
}

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
  writeVerb(PROJECTS, 'POST', {
    description: 'Create a project; validation errors are shown field by field (exit 6)',
    body: [
      { flags: '--name <name>', key: 'name', help: 'project name', parse: requiredTextParser('--name'), required: true },
      {
        flags: '--path <path>',
        key: 'path',
        help: 'URL path of the project (default: derived from the name)',
        parse: requiredTextParser('--path'),
      },
      {
        flags: '--namespace <namespace>',
        key: 'namespace_id',
        help: 'numeric id or full path of the group or user namespace (default: your own)',
        parse: requiredTextParser('--namespace'),
        resolve: namespaceId,
      },
      { flags: '--description <text>', key: 'description', help: 'project description' },
      { flags: '--visibility <level>', key: 'visibility', help: 'visibility', choices: VISIBILITIES },
    ],
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
  namingRole(
    'maintainer',
    actionVerb(SHARES, {
      name: 'unshare',
      method: 'DELETE',
      description: 'Stop sharing a project with a group (prints nothing on stdout; the exit code is the result)',
      done: ([project, group]) => `project ${String(project)} is no longer shared with group ${String(group)}`,
      scheduled: ([project, group]) => `removing the share of project ${String(project)} with group ${String(group)} was accepted`,
      examples: ['svc projects unshare acme/platform/api 5', 'svc projects unshare acme/platform/api acme/reviewers'],
    }),
  ),
];
