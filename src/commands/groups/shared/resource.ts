import type { Resource } from '../../generic/resource.js';
import { nameParam } from '../../shared/args.js';

export const GROUP_FIELDS = ['id', 'full_path', 'name', 'description', 'visibility', 'parent_id', 'created_at', 'web_url'];

export const GROUPS: Resource = {
  path: '/groups',
  id: 'group',
  params: { group: nameParam('group', 'numeric id or full path of the group (parent/child)') },
  columns: ['id', 'full_path', 'name', 'visibility'],
  fields: GROUP_FIELDS,
};
