// Records of the administrator's resources: runners, audit events, project exports.

export type RunnerType = 'instance_type' | 'group_type' | 'project_type';

export interface RunnerRec {
  id: number;
  description: string;
  runnerType: RunnerType;
  paused: boolean;
  /** ms; null when the runner never contacted the instance */
  contactedAt: number | null;
  createdAt: number;
  tagList: string[];
  runUntagged: boolean;
  locked: boolean;
  accessLevel: 'not_protected' | 'ref_protected';
  maximumTimeout: number | null;
  maintenanceNote: string | null;
  version: string;
  /** the projects of a project runner, in the order they were assigned */
  projectIds: number[];
  /** the group of a group runner */
  groupId: number | null;
}

export type AuditEntityType = 'Project' | 'User' | 'Group' | 'Gitlab::Audit::InstanceScope';

export interface AuditEventRec {
  id: number;
  authorId: number;
  entityId: number;
  entityType: AuditEntityType;
  eventName: string;
  targetId: number;
  targetType: string;
  targetDetails: string;
  createdAt: number;
}

export type ExportStatus = 'queued' | 'started' | 'finished' | 'failed';

export interface ProjectExportRec {
  projectId: number;
  requestedAt: number;
  /** the `description` given with the request, part of the archive */
  description: string | null;
}
