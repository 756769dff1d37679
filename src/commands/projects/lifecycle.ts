import { getNamespace } from '../../api/namespaces.js';
import type { HttpClient } from '../../http/client.js';
import { calledOf, type Resource } from '../generic/resource.js';
import { writeVerb } from '../generic/write.js';
import { accessLevel, accessLevelName, isoDate } from '../shared/access-level.js';
import { groupId, requiredTextParser } from '../shared/args.js';
import { PROJECT_FIELDS, PROJECTS } from './shared/resource.js';

/** The fork endpoint takes the namespace by path here; an id is looked up first. */
async function namespacePath(http: HttpClient, namespace: unknown): Promise<string> {
  const text = String(namespace).trim();
  return /^\d+$/.test(text) ? (await getNamespace(http, text)).full_path : text;
}

/** Archiving and restoring change the archived state: the table shows it. */
const WITH_ARCHIVED = [...PROJECT_FIELDS, 'archived'];
const project = (args: unknown[]) => calledOf(PROJECTS, args);

export const UPDATE = writeVerb(PROJECTS, {
  name: 'update',
  answer: 'status',
  description: "Change a project's name, path, description, visibility, default branch or topics",
  examples: ['svc projects update acme/api --description "Public API" --topics api,rest', 'svc projects update 42 --visibility internal'],
});

function archiveVerb(archive: boolean) {
  return writeVerb(PROJECTS, {
    name: archive ? 'archive' : 'unarchive',
    path: `/projects/:project/${archive ? 'archive' : 'unarchive'}`,
    answer: 'status',
    description: archive ? 'Archive a project: it becomes read-only until unarchived' : 'Unarchive a project: it takes writes again',
    done: ({ args }) => `${archive ? 'archived' : 'unarchived'} ${project(args)}`,
    fields: WITH_ARCHIVED,
    examples: [`svc projects ${archive ? 'archive' : 'unarchive'} acme/legacy-api`],
  });
}

export const ARCHIVE = archiveVerb(true);
export const UNARCHIVE = archiveVerb(false);

export const TRANSFER = writeVerb(PROJECTS, {
  name: 'transfer',
  method: 'PUT',
  path: '/projects/:project/transfer',
  answer: 'status',
  description: 'Move a project to another group or user namespace',
  body: [
    {
      flags: '--namespace <namespace>',
      key: 'namespace',
      help: 'id or full path of the target namespace',
      parse: requiredTextParser('--namespace'),
      required: true,
    },
  ],
  done: ({ args, params }) => `transferred ${project(args)} to namespace ${String(params.namespace)}`,
  examples: ['svc projects transfer acme/api --namespace acme/platform'],
});

const SHARE_LINK: Resource = { ...PROJECTS, fields: ['id', 'project_id', 'group_id', 'group_access', 'expires_at'] };

export const SHARE = writeVerb(SHARE_LINK, {
  name: 'share',
  path: '/projects/:project/share',
  answer: 'status',
  description: 'Share a project with a group at an access level (undone by unshare)',
  body: [
    { flags: '--group <group>', key: 'group_id', help: 'id or full path of the group', required: true, resolve: groupId },
    {
      flags: '--access <level>',
      key: 'group_access',
      help: 'guest, planner, reporter, developer, maintainer or owner (or the number)',
      parse: accessLevel('--access'),
      required: true,
    },
    { flags: '--expires <date>', key: 'expires_at', help: 'end of the share (YYYY-MM-DD)', parse: isoDate('--expires') },
  ],
  done: ({ args, params, opts }) =>
    `shared ${project(args)} with group ${String(opts.group)} as ${accessLevelName(Number(params.group_access))}` +
    (params.expires_at ? ` until ${String(params.expires_at)}` : ''),
  examples: ['svc projects share acme/api --group acme/reviewers --access reporter --expires 2026-12-31'],
});

export const FORK = writeVerb(PROJECTS, {
  name: 'fork',
  path: '/projects/:project/fork',
  answer: 'status',
  description: 'Fork a project into your namespace or another one',
  body: [
    {
      flags: '--namespace <namespace>',
      key: 'namespace_path',
      help: 'id or full path of the target namespace (default: your own)',
      parse: requiredTextParser('--namespace'),
      resolve: namespacePath,
    },
    { flags: '--name <name>', key: 'name', help: 'name of the fork (default: the same)', parse: requiredTextParser('--name') },
    { flags: '--path <path>', key: 'path', help: 'path of the fork (default: the same)', parse: requiredTextParser('--path') },
  ],
  done: ({ args, params }) =>
    `forked ${project(args)} into ${params.namespace_path === undefined ? 'your namespace' : String(params.namespace_path)}`,
  examples: ['svc projects fork acme/api', 'svc projects fork acme/api --namespace jdoe --path api-experiments'],
});

export const RESTORE = writeVerb(PROJECTS, {
  name: 'restore',
  path: '/projects/:project/restore',
  answer: 'status',
  description: 'Undo a scheduled deletion (the project gets its name and path back, unarchived)',
  done: ({ args }) => `restored ${project(args)}`,
  fields: WITH_ARCHIVED,
  examples: ['svc projects restore 42'],
});
