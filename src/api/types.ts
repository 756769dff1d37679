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
  repository_storage?: string;
  last_activity_at?: string;
  created_at?: string;
  web_url?: string;
  namespace?: NamespaceRef;
  import_status?: string;
  import_error?: string | null;
}
