import type { Resource } from '../../generic/resource.js';
import { groupId, nameParam, requiredTextParser } from '../../shared/args.js';
import { VISIBILITIES } from '../../shared/service-enums.js';

export const GROUP_FIELDS = ['id', 'full_path', 'name', 'description', 'visibility', 'parent_id', 'created_at', 'web_url'];

export const GROUPS: Resource = {
  path: '/groups',
  id: 'group',
  params: { group: nameParam('group', 'numeric id or full path of the group (parent/child)') },
  columns: ['id', 'full_path', 'name', 'visibility'],
  fields: GROUP_FIELDS,
  called: ([group]) => `group ${String(group)}`,
  create: [
    { flags: '--name <name>', key: 'name', help: 'group name', parse: requiredTextParser('--name'), required: true },
    { flags: '--path <path>', key: 'path', help: 'URL path of the group', parse: requiredTextParser('--path'), required: true },
    {
      flags: '--parent <group>',
      key: 'parent_id',
      help: 'create it under this group (numeric id or full path; needs the owner role there)',
      parse: requiredTextParser('--parent'),
      resolve: groupId,
    },
    { flags: '--visibility <level>', key: 'visibility', help: 'who can see it (default: private)', choices: VISIBILITIES },
    { flags: '--description <text>', key: 'description', help: 'group description' },
  ],
  update: {
    fields: [
      { flags: '--name <name>', key: 'name', help: 'new name', parse: requiredTextParser('--name') },
      {
        flags: '--path <path>',
        key: 'path',
        help: 'new URL path (renames the full path of its subgroups and projects)',
        parse: requiredTextParser('--path'),
      },
      { flags: '--description <text>', key: 'description', help: 'new description' },
      { flags: '--visibility <level>', key: 'visibility', help: 'new visibility', choices: VISIBILITIES },
    ],
    atLeastOne: true,
  },
  roles: { create: 'owner', update: 'owner' },
};
