// NamespaceBasic, the namespace entity nested in projects: any resource may answer with it without
// importing the namespaces resource.
import type { World } from '../store/world.js';

export type NamespaceRef = { kind: 'group' | 'user'; owner: number };

export function namespaceBasic(w: World, kind: 'group' | 'user', owner: number): Record<string, unknown> {
  if (kind === 'group') {
    const g = w.groups.get(owner)!;
    return {
      id: g.id,
      name: g.name,
      path: g.path,
      kind: 'group',
      full_path: g.fullPath,
      parent_id: g.parentId,
      avatar_url: null,
      web_url: `${w.base()}/groups/${g.fullPath}`,
    };
  }
  const u = w.users.get(owner)!;
  return {
    id: w.namespaceId('user', u.id),
    name: u.name,
    path: u.username,
    kind: 'user',
    full_path: u.username,
    parent_id: null,
    avatar_url: null,
    web_url: `${w.base()}/${u.username}`,
  };
}
