import { getNamespace } from '../../api/namespaces.js';
import type { HttpClient } from '../../http/client.js';
import type { QueryParams } from '../../http/encode.js';
import { recordWriteVerb } from '../generic/record-write.js';
import type { Resource } from '../generic/resource.js';
import { accessLevel, accessLevelName, isoDate } from '../shared/access-level.js';
import { groupId, requiredTextParser } from '../shared/args.js';
import { PROJECT_FIELDS, PROJECTS } from './shared/resource.js';
import { VISIBILITIES } from '../shared/service-enums.js';

/** The fork endpoint takes the namespace by path here; an id is looked up first. */
async function namespacePath(http: HttpClient, namespace: unknown): Promise<string> {
  const text = String(namespace).trim();
  return /^\d+$/.test(text) ? (await getNamespace(http, text)).full_path : text;
}

const changed = (params: QueryParams) => Object.keys(params).join(', ');
/** Archiving and restoring change the archived state: the table shows it. */
const WITH_ARCHIVED = [...PROJECT_FIELDS, 'archived'];
const name = (args: unknown[]) => String(args[0]);

const topicList = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

export const UPDATE = recordWriteVerb(PROJECTS, {
  name: 'update',
  method: 'PUT',
  role: 'maintainer',
  description: "Change a project's name, path, description, visibility, default branch or topics",
  body: [
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
  done: (args, params) => `updated project ${name(args)}: ${changed(params)}`,
  examples: ['svc projects update acme/api --description "Public API" --topics api,rest', 'svc projects update 42 --visibility internal'],
});

function archiveVerb(archive: boolean) {
  return recordWriteVerb(PROJECTS, {
    name: archive ? 'archive' : 'unarchive',
    method: 'POST',
    path: `/projects/:project/${archive ? 'archive' : 'unarchive'}`,
    role: 'owner',
    description: archive ? 'Archive a project: it becomes read-only until unarchived' : 'Unarchive a project: it takes writes again',
    done: (args) => `${archive ? 'archived' : 'unarchived'} project ${name(args)}`,
    fields: WITH_ARCHIVED,
    examples: [`svc projects ${archive ? 'archive' : 'unarchive'} acme/legacy-api`],
  });
}

export const ARCHIVE = archiveVerb(true);
export const UNARCHIVE = archiveVerb(false);

export const TRANSFER = recordWriteVerb(PROJECTS, {
  name: 'transfer',
  method: 'PUT',
  path: '/projects/:project/transfer',
  role: 'owner',
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
  done: (args, params) => `transferred project ${name(args)} to namespace ${String(params.namespace)}`,
  examples: ['svc projects transfer acme/api --namespace acme/platform'],
});

const SHARE_LINK: Resource = { ...PROJECTS, fields: ['id', 'project_id', 'group_id', 'group_access', 'expires_at'] };

export const SHARE = recordWriteVerb(SHARE_LINK, {
  name: 'share',
  method: 'POST',
  path: '/projects/:project/share',
  role: 'maintainer',
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
  done: (args, params, opts) =>
    `shared project ${name(args)} with group ${String(opts.group)} as ${accessLevelName(Number(params.group_access))}` +
    (params.expires_at ? ` until ${String(params.expires_at)}` : ''),
  examples: ['svc projects share acme/api --group acme/reviewers --access reporter --expires 2026-12-31'],
});

export const FORK = recordWriteVerb(PROJECTS, {
  name: 'fork',
  method: 'POST',
  path: '/projects/:project/fork',
  role: 'reporter',
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
  done: (args, params) =>
    `forked project ${name(args)} into ${params.namespace_path === undefined ? 'your namespace' : String(params.namespace_path)}`,
  examples: ['svc projects fork acme/api', 'svc projects fork acme/api --namespace jdoe --path api-experiments'],
});

export const RESTORE = recordWriteVerb(PROJECTS, {
  name: 'restore',
  method: 'POST',
  path: '/projects/:project/restore',
  role: 'owner',
  description: 'Undo a scheduled deletion (the project gets its name and path back, unarchived)',
  done: (args) => `restored project ${name(args)}`,
  fields: WITH_ARCHIVED,
  examples: ['svc projects restore 42'],
});
