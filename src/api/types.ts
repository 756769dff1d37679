/** Shapes of the service's resources, as far as svc relies on them (the service sends more). */
export interface NamespaceRef {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  full_path: string;
  parent_id?: number | null;
  web_url?: string;
}

export interface Project {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  name_with_namespace?: string;
  description?: string | null;
  visibility?: string;
  default_branch?: string | null;
  repository_storage?: string;
  last_activity_at?: string;
  created_at?: string;
  web_url?: string;
  namespace?: NamespaceRef;
  import_status?: string;
  import_error?: string | null;
}

export interface ProjectImport {
  id: number;
  name?: string;
  path?: string;
  path_with_namespace: string;
  import_status: string;
  import_error?: string | null;
}

export interface Issue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  state: string;
  web_url?: string;
}

export interface Note {
  id: number;
  body: string;
  system?: boolean;
  created_at?: string;
}

export interface Pipeline {
  id: number;
  iid?: number;
  project_id: number;
  ref: string;
  sha: string;
  status: string;
  web_url: string;
}

export interface PipelineVariable {
  key: string;
  value: string;
  variable_type?: 'env_var' | 'file';
}

export interface RepositoryFile {
  file_name: string;
  file_path: string;
  size: number;
  encoding: string;
  content: string;
  content_sha256?: string;
  ref: string;
  blob_id?: string;
  commit_id?: string;
  last_commit_id?: string;
}

export interface Commit {
  id: string;
  short_id: string;
  title: string;
  author_name?: string;
  created_at?: string;
}

export interface Tag {
  name: string;
  message?: string | null;
  target?: string;
  commit?: Commit | null;
  protected?: boolean;
}

export interface Release {
  tag_name: string;
  name: string;
  released_at?: string;
}

/** `GET /namespaces` returns the same shape as a project's `namespace`. */
export type Namespace = NamespaceRef;

export interface Group {
  id: number;
  name: string;
  path: string;
  full_path: string;
  visibility?: string;
}

export interface User {
  id: number;
  username: string;
  name: string;
  state?: string;
}

export interface Snippet {
  id: number;
  title: string;
  file_name?: string;
  visibility?: string;
  web_url?: string;
}

/** The body of a spam verdict that a CAPTCHA can overturn. */
export interface CaptchaChallenge {
  needs_captcha_response: true;
  spam_log_id: number;
  captcha_site_key: string;
}
