import { getNamespace } from '../../../api/namespaces.js';
import type { HttpClient } from '../../../http/client.js';
import type { Resource } from '../../generic/resource.js';
import { PROJECT, requiredTextParser } from '../../shared/args.js';
import { VISIBILITIES } from '../../shared/service-enums.js';

export const PROJECT_FIELDS = [
  'id',
  'path_with_namespace',
  'name',
  'description',
  'visibility',
  'default_branch',
  'repository_storage',
  'web_url',
  'created_at',
  'last_activity_at',
];

/** The create endpoint takes a namespace id; a path is looked up first. */
async function namespaceId(http: HttpClient, namespace: unknown): Promise<number> {
  const trimmed = String(namespace).trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return (await getNamespace(http, trimmed)).id;
}

const topicList = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

export const PROJECTS: Resource = {
  path: '/projects',
  id: 'project',
  params: { project: PROJECT },
  fields: PROJECT_FIELDS,
  called: ([project]) => `project ${String(project)}`,
  create: [
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
  update: {
    atLeastOne: true,
    fields: [
      { flags: '--name <name>', key: 'name', help: 'new name', parse: requiredTextParser('--name') },
      { flags: '--path <path>', key: 'path', help: 'new URL path (renames the repository)', parse: requiredTextParser('--path') },
      { flags: '--description <text>', key: 'description', help: 'new description' },
      { flags: '--visibility <level>', key: 'visibility', help: 'new visibility', choices: VISIBILITIES },
      {
        flags: '--default-branch <branch>',
        key: 'default_branch',
        help: 'new default branch',
        parse: requiredTextParser('--default-branch'),
      },
      {
        flags: '--topics <list>',
        key: 'topics',
        help: 'comma-separated topics, replacing the current ones ("" clears them)',
        parse: topicList,
      },
    ],
  },
  roles: {
    update: 'maintainer',
    archive: 'owner',
    unarchive: 'owner',
    transfer: 'owner',
    share: 'maintainer',
    unshare: 'maintainer',
    fork: 'reporter',
    restore: 'owner',
  },
};
