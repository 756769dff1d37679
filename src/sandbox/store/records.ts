// Record types of the sandbox's store.
export type Visibility = 'public' | 'internal' | 'private';

export interface UserRec {
  id: number;
  username: string;
  name: string;
  email: string;
  state: 'active' | 'blocked' | 'deactivated' | 'banned';
  isAdmin: boolean;
  createdAt: number;
  updatedAt: number;
  /** Last authenticated request (the service's `last_activity_on`); seeded users have none. */
  lastActivityAt?: number;
  external?: boolean;
  /** The bot user of a project or group access token. */
  bot?: boolean;
  /** profile attributes written through the API (`resources/user-profile.ts`) */
  profile?: Record<string, unknown>;
  identities?: Array<{ provider: string; externUid: string }>;
}

export interface GroupRec {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  fullName: string;
  parentId: number | null;
  rootId: number;
  visibility: Visibility;
  description: string;
  createdAt: number;
  storage: string;
  readOnly: boolean;
  /** Set by a delayed deletion (YYYY-MM-DD). */
  markedForDeletionOn?: string;
}

export interface ProjectRec {
  id: number;
  name: string;
  path: string;
  nsKind: 'group' | 'user';
  nsOwner: number; // group id or user id
  fullPath: string;
  visibility: Visibility;
  storage: string;
  readOnly: boolean;
  description: string | null;
  createdAt: number;
  lastActivityAt: number;
  creatorId: number;
  starCount: number;
  importStatus: string;
  seeded: boolean;
  archived: boolean;
  /** shared, never mutated: a topic change replaces the array */
  topics: readonly string[];
  issuesEnabled: boolean;
  mergeRequestsEnabled: boolean;
}

export interface SnippetRec {
  id: number;
  title: string;
  fileName: string;
  description: string | null;
  visibility: Visibility;
  authorId: number;
  content: string;
  createdAt: number;
  updatedAt: number;
  storage: string;
  readOnly: boolean;
}

export interface ImportRec {
  projectId: number;
  startedAt: number;
  fails: boolean;
  correlationId: string;
}

export interface PipelineRec {
  id: number;
  iid: number;
  projectId: number;
  ref: string;
  sha: string;
  createdAt: number;
  userId: number;
  /** fixed status for seeded pipelines; null = progresses with time */
  fixedStatus: string | null;
  willFail: boolean;
  variables: Array<{ key: string; value: string; variable_type: string }>;
  jobIds: number[];
}

export interface JobRec {
  id: number;
  pipelineId: number;
  projectId: number;
  name: string;
  stage: string;
  hasArtifacts: boolean;
  /** when it was erased (its artifacts and log gone) */
  erasedAt?: number;
}

export interface ReleaseRec {
  tagName: string;
  name: string;
  description: string;
  createdAt: number;
  releasedAt: number;
  authorId: number;
  sha: string;
}

export interface CommitRec {
  id: string;
  title: string;
  parentId: string | null;
  createdAt: number;
  authorIdx: number;
  /** a commit made through the API: its author, and the paths it changed */
  author?: [string, string];
  paths?: string[];
  /** a commit made through the API: its whole message, and the lines it added and deleted */
  message?: string;
  stats?: { additions: number; deletions: number };
}

export interface ShareRec {
  groupId: number;
  access: number;
  expiresAt: string | null;
}

export interface IssueRec {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  closedById: number | null;
  labels: readonly string[];
  milestone: string | null;
  authorId: number;
  assigneeId: number | null;
  upvotes: number;
  userNotesCount: number;
}

/** A personal, impersonation, project or group access token (the last two belong to a bot user). */
export interface AccessTokenRec {
  id: number;
  kind: 'personal' | 'impersonation' | 'project' | 'group';
  name: string;
  description: string;
  userId: number;
  /** the project or group of an access token, else null */
  resourceId: number | null;
  scopes: string[];
  /** project and group access tokens only */
  accessLevel: number | null;
  createdAt: number;
  /** YYYY-MM-DD, or null when it never expires */
  expiresAt: string | null;
  revoked: boolean;
  lastUsedAt: number | null;
}

export interface DeployTokenRec {
  id: number;
  name: string;
  username: string;
  /** the project or group it belongs to */
  ownerKind: 'project' | 'group';
  ownerId: number;
  scopes: string[];
  createdAt: number;
  /** YYYY-MM-DD, or null */
  expiresAt: string | null;
  revoked: boolean;
}
