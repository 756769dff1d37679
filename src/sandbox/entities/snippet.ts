// The Snippet entity (entities/personal_snippet.rb, project_snippet.rb): a personal snippet lives at
// `/-/snippets/:id`, a project's under the project's path; both list their files on the one branch.
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';
import { userBasic } from './user.js';

export interface SnippetView {
  id: number;
  title: string;
  description: string | null;
  visibility: string;
  authorId: number;
  createdAt: number;
  updatedAt: number;
  files: ReadonlyArray<{ path: string }>;
}

/** A snippet as answered; `project` for a project's snippet (its id and full path). */
export function snippetEntity(w: World, s: SnippetView, project: { id: number; fullPath: string } | null): Record<string, unknown> {
  const base = w.base();
  const under = project ? `${project.fullPath}/` : '';
  const web = `${base}/${under}-/snippets/${s.id}`;
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility,
    author: userBasic(w, w.users.get(s.authorId)!),
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    project_id: project?.id ?? null,
    web_url: web,
    raw_url: `${web}/raw`,
    ssh_url_to_repo: `git@${base.replace(/^https?:\/\//, '').replace(/:\d+$/, '')}:${under}snippets/${s.id}.git`,
    http_url_to_repo: `${base}/${under}snippets/${s.id}.git`,
    file_name: s.files[0]!.path,
    files: s.files.map((f) => ({ path: f.path, raw_url: `${web}/raw/main/${f.path}` })),
    imported: false,
    imported_from: 'none',
  };
}
